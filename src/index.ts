/**
 * scratchlab: a typed client of the Scratch platform.
 *
 * Start with {@link Session}; the embedded sandbox is in `scratchlab/sandbox`.
 */

export { AnalysisError, type AnalysisErrorCode } from './analysis/analysis-error.js';
export { type AnalysisLimits, DEFAULT_ANALYSIS_LIMITS } from './analysis/analysis-limits.js';
export {
  type AnalysisRow,
  type AnalysisTables,
  analysisRows,
  type OpcodeRow,
  type ScriptRow,
  type SmellRow,
} from './analysis/analysis-rows.js';
export { type AnalysisInput, analyzeProject, type ProjectAnalysis } from './analysis/analyze-project.js';
export type { Block, BlockField, BlockInput, InputValue, Primitive } from './analysis/blocks.js';
export { CT_DIMENSIONS, type MasteryScore } from './analysis/mastery.js';
export type { ProjectMetrics, ScriptMetrics } from './analysis/metrics.js';
export { categoryOf, isHat } from './analysis/opcodes.js';
export type { Procedure, Procedures } from './analysis/procedures.js';
export {
  type AssetView,
  type CommentView,
  type Declaration,
  type MonitorView,
  type ProjectModel,
  readProjectModel,
  type TargetView,
} from './analysis/project-model.js';
export type { BroadcastUsage, References, Usage } from './analysis/references.js';
export type { Script, ScriptInput, ScriptNode } from './analysis/scripts.js';
export type { ProjectSmells, SmellSite } from './analysis/smells.js';
export type { ProjectSummary } from './analysis/summary.js';
export * from './cloud/index.js';
export type { Database } from './databases/database.js';
export { JsonDatabase, type JsonDatabaseOptions } from './databases/json-database.js';
export { MemoryDatabase, type MemoryDatabaseOptions } from './databases/memory-database.js';
export {
  SqlDatabase,
  type SqlDatabaseOptions,
  type SqlDialect,
  type SqlQuery,
} from './databases/sql-database.js';
export { decode, decodeList, Encoding, type EncodingOptions, encode, encodeList } from './encoding.js';
export {
  ApiError,
  type ApiErrorInit,
  CommentRejectedError,
  type CommentRejectedInit,
  LoginRequiredError,
} from './errors.js';
export type { ClientCore } from './http/client-core.js';
export type { CookieJarLike } from './http/cookies.js';
export { type Hosts, PLATFORM_HOSTS, resolveHosts } from './http/hosts.js';
export {
  DEFAULT_MAX_DOWNLOAD_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_USER_AGENT,
  type FetchInit,
  type FetchLike,
  type FetchResponse,
  type HttpAnswer,
} from './http/http.js';
export {
  type ListSettings,
  MAX_PAGE_SIZE,
  PagedList,
  type PageFetcher,
  type PageOptions,
  type PageProgress,
  type RateLimitWatch,
  type WalkOptions,
} from './http/paging.js';
export {
  DEFAULT_RATE_LIMIT,
  type RateLimit,
  type RateLimitListener,
  type RateLimitWait,
  RequestBudget,
  rateLimitMessage,
} from './http/request-budget.js';
export { ArchiveError, type ArchiveErrorCode } from './project/archive-error.js';
export {
  type AssetUse,
  assetUses,
  checkAsset,
  isAssetName,
  md5ext,
  md5Hex,
  projectAssetNames,
} from './project/assets.js';
export { contentTypeFor } from './project/content-types.js';
export {
  checkProject,
  type ProjectProblem,
  type RepairedProject,
  repairProject,
} from './project/project-check.js';
export type { AssetsInput, FileContent, ProjectInput } from './project/project-input.js';
export type {
  AssetReference,
  CustomFont,
  ProjectFiles,
  ProjectJson,
  ProjectTarget,
} from './project/project-json.js';
export { loadSb3, type ReadSb3Options, readSb3, type Sb3Project, saveSb3, writeSb3 } from './project/sb3.js';
export { DEFAULT_ZIP_LIMITS, type ZipLimits } from './project/zip.js';
export type * from './records/activity-records.js';
export { MESSAGE_FILTERS, MESSAGE_TYPES } from './records/activity-records.js';
export type * from './records/backpack-records.js';
// Classrooms, the backpack, "My Stuff", project creation and profile edits (WIRE.md §12.2-12.5).
export type * from './records/classroom-records.js';
export { classActivityName } from './records/classroom-records.js';
export type * from './records/forum-records.js';
export { SITE_TIME_ZONE } from './records/forum-time.js';
export type * from './records/my-stuff-records.js';
export type * from './records/profile-records.js';
export { FEATURED_LABEL_CODES } from './records/profile-records.js';
export type * from './records/records.js';
export type * from './records/write-records.js';
export { Backpack } from './resources/backpack.js';
export {
  type ClassActivityOptions,
  type ClassCreateOptions,
  Classrooms,
  type MyClassesOptions,
} from './resources/classrooms.js';
export { type ForumReadOptions, Forums, POSTS_PER_PAGE, TOPICS_PER_PAGE } from './resources/forums.js';
export { type MessageListOptions, Messages } from './resources/messages.js';
export { MyStuff, type MyStuffProjectOptions, type MyStuffStudioOptions } from './resources/my-stuff.js';
export {
  CommentEvents,
  type CommentEventsMap,
  type CommentEventsOptions,
  MessageEvents,
  type MessageEventsMap,
  type MessageEventsOptions,
  NewRowEvents,
  type NewRowEventsMap,
  type NewRowEventsOptions,
} from './resources/new-row-events.js';
export type {
  AnalyzeAllOptions,
  AnalyzedProject,
  AnalyzeOptions,
  AnalyzeProgress,
} from './resources/project-analysis.js';
export {
  type CommentListOptions,
  type ProjectMetadata,
  Projects,
  type SaveOptions,
  type TransferOptions,
  type TransferProgress,
} from './resources/projects.js';
export type {
  RemixTreeNode,
  RemixTreeOptions,
  RemixTreeProgress,
} from './resources/remix-tree.js';
export type { ListOptions } from './resources/resource.js';
export { Search, type SearchMode, type SearchOptions } from './resources/search.js';
export type { SitePageOptions } from './resources/site-pages.js';
export type {
  DailyStatistics,
  MonthlyGaStatistics,
  MonthlyStatistics,
  SiteStatistics,
  StatisticsPoint,
  StatisticsSeries,
} from './resources/statistics.js';
export { type StudioActivityOptions, Studios } from './resources/studios.js';
export { type UserActivityOptions, Users } from './resources/users.js';
export type { FlatRow, FlatValue } from './rows/flat-rows.js';
export type { ListWindow } from './rows/list-window.js';
export { RecordList } from './rows/record-list.js';
export { SavedFile } from './rows/saved-file.js';
export { type AuthedRequestOptions, Session, type SessionOptions } from './session.js';
