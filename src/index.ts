/**
 * scratchlab: a typed client of the Scratch platform.
 *
 * Start with {@link Session}; the embedded sandbox is in `scratchlab/sandbox`.
 */
export { Session, type SessionOptions, type AuthedRequestOptions } from './session.js';
export { ApiError, LoginRequiredError, type ApiErrorInit } from './errors.js';
export { PLATFORM_HOSTS, resolveHosts, type Hosts } from './hosts.js';
export { DEFAULT_USER_AGENT, type FetchLike, type FetchInit, type FetchResponse, type HttpAnswer } from './http.js';
export {
  PagedList,
  MAX_PAGE_SIZE,
  type PageOptions,
  type PageProgress,
  type WalkOptions,
  type PageFetcher,
} from './paging.js';
export type { ListOptions } from './resources/resource.js';
export { Users } from './resources/users.js';
export {
  Projects,
  type TransferOptions,
  type TransferProgress,
  type CommentListOptions,
  type ProjectMetadata,
} from './resources/projects.js';
export { Studios } from './resources/studios.js';
export { Search, type SearchMode, type SearchOptions } from './resources/search.js';
export { readSb3, writeSb3, loadSb3, saveSb3 } from './project/sb3.js';
export { md5ext, md5Hex, isAssetName, checkAsset, projectAssetNames } from './project/assets.js';
export type { ProjectInput, AssetsInput, FileContent } from './project/project-input.js';
export type { ProjectJson, ProjectTarget, AssetReference, ProjectFiles } from './project/project-json.js';
export type * from './records.js';
export { encode, decode, encodeList, decodeList, Encoding, type EncodingOptions } from './encoding.js';
export type { Database } from './databases/database.js';
export { MemoryDatabase, type MemoryDatabaseOptions } from './databases/memory-database.js';
export { JsonDatabase, type JsonDatabaseOptions } from './databases/json-database.js';
export { SqlDatabase, type SqlDatabaseOptions, type SqlDialect, type SqlQuery } from './databases/sql-database.js';
