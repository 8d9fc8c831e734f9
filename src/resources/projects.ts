import { analyzeProject } from '../analysis/analyze-project.js';
import { ApiError } from '../errors.js';
import { mapConcurrent } from '../http/concurrency.js';
import type { PagedList } from '../http/paging.js';
import type { RateLimitWait } from '../http/request-budget.js';
import { checkAsset, isAssetName, md5ext, md5Hex, projectAssetNames } from '../project/assets.js';
import { contentTypeFor } from '../project/content-types.js';
import { emptyProject } from '../project/empty-project.js';
import { checkProject, repairProject } from '../project/project-check.js';
import { type AssetsInput, type ProjectInput, toProjectFiles } from '../project/project-input.js';
import { isProjectJson, type ProjectFiles, type ProjectJson } from '../project/project-json.js';
import { stringifyJson, tryParseJson } from '../records/json.js';
import type { Comment, Project, ProjectSaveAnswer, Studio } from '../records/records.js';
import {
  assertBoolean,
  assertInteger,
  assertNonEmptyString,
  assertObject,
  assertString,
  toId,
} from '../records/validate.js';
import type {
  CommentPostOptions,
  CommentReport,
  FavoriteAnswer,
  LoveAnswer,
  PostedComment,
} from '../records/write-records.js';
import { deleteApiComment, postApiComment, reportApiComment } from './comment-writes.js';
import { CommentEvents, type CommentEventsOptions } from './new-row-events.js';
import {
  type AnalyzeAllOptions,
  type AnalyzedProject,
  type AnalyzeOptions,
  analyzeEach,
} from './project-analysis.js';
import { buildRemixTree, type RemixTreeNode, type RemixTreeOptions } from './remix-tree.js';
import { type ListOptions, Resource } from './resource.js';

/** Progress of a transfer of many assets. */
export interface TransferProgress {
  /** Assets finished so far. */
  done: number;
  /** Assets in all. */
  total: number;
  /** Bytes moved so far. */
  bytes: number;
  /** The asset just finished. */
  asset?: string;
  /** Set while the service makes the transfer wait: `{ resumeInMs, message: 'rate-limited, resuming in 2.1 s' }`. */
  rateLimited?: RateLimitWait;
}

/** Options of `download` and `save`. */
export interface TransferOptions {
  /** Asset transfers running at once (default 10). */
  concurrency?: number;
  /** Called after each asset. */
  onProgress?: (progress: TransferProgress) => void;
  signal?: AbortSignal;
}

/** Options of `save`. */
export interface SaveOptions extends TransferOptions {
  /**
   * Repair what `readSb3` reports as fixable before uploading: assets whose bytes do not match
   * their name are renamed to their real md5 (and the body's references rewritten), files that
   * are not assets are left out. Without it, such files make `save` throw, naming every one.
   */
  repair?: boolean;
}

/** Options of the comment lists: the author is looked up when not given. */
export interface CommentListOptions extends ListOptions {
  /** The project's author (saves one request). */
  author?: string;
}

/** Editable metadata of a project. */
export interface ProjectMetadata {
  title?: string;
  instructions?: string;
  description?: string;
}

/** What `projects.create` takes. */
export interface ProjectCreateOptions {
  /** The title (at most 100 characters; the site's default is "Untitled"). */
  title?: string;
  /** The body (default: an empty project). */
  json?: ProjectJson | string;
  /** The assets the body names that the server may not have yet, by `md5ext`. */
  assets?: AssetsInput;
}

/** The largest thumbnail `setThumbnail` sends. */
export const MAX_THUMBNAIL_BYTES = 512 * 1024;
const MAX_TITLE = 100;
const DEFAULT_CONCURRENCY = 10;
const METADATA_KEYS = ['title', 'instructions', 'description'] as const;

/** Projects: metadata (`{api}`), bodies (`{projects}`), assets (`{assets}`) and writes. */
export class Projects extends Resource {
  /**
   * The remix tree the project belongs to, from its root down (WIRE.md §11.3): the service's own
   * tree endpoint is gone, so it is walked from `remix.root` through each project's remixes, one
   * list per project, within `depth` levels and `limit` projects, reporting `onProgress`.
   * `plot(tree)` draws it.
   */
  async remixTree(id: number | string, options: RemixTreeOptions = {}): Promise<RemixTreeNode> {
    const projectId = toId(id, 'project id');
    return buildRemixTree(
      {
        get: (pid) => this.get(pid),
        remixes: (pid, max, signal) => this.remixes(pid, { limit: max, signal, prefetch: 1 }).all(),
      },
      projectId,
      options,
    );
  }

  /** One project's metadata, with a fresh `project_token`. */
  async get(id: number | string): Promise<Project> {
    return this.session.apiGet<Project>(`/projects/${toId(id, 'project id')}`);
  }

  /** Remixes of the project. */
  remixes(id: number | string, options?: ListOptions): PagedList<Project> {
    return this.list<Project>(`/projects/${toId(id, 'project id')}/remixes`, options);
  }

  /** Top-level comments on the project. */
  comments(id: number | string, options: CommentListOptions = {}): PagedList<Comment> {
    const { author, ...rest } = options ?? {};
    const projectId = toId(id, 'project id');
    return this.list<Comment>(async () => `${await this.#commentsPath(projectId, author)}`, rest);
  }

  /**
   * New top-level comments of the project as `comment` events, oldest first, by polling the
   * newest comments (as `messages.events()` polls the inbox): `start()`, `stop()`, `lastSeenId`
   * to resume. `author` saves the request that looks the author up (made once, by the first poll,
   * otherwise: a project keeps its author).
   */
  commentEvents(
    id: number | string,
    options: CommentEventsOptions & { author?: string } = {},
  ): CommentEvents {
    const projectId = toId(id, 'project id');
    const { author, ...rest } = options ?? {};
    if (author !== undefined) assertString(author, 'author');
    let owner = author;
    return new CommentEvents(async (limit, offset, signal) => {
      // Looked up with the poll's signal, so that stop() abandons it too.
      owner ??= (await this.session.apiGet<Project>(`/projects/${projectId}`, undefined, signal)).author
        .username;
      return this.comments(projectId, { author: owner, limit, offset, signal });
    }, rest);
  }

  /** One comment of the project, top-level or reply, by its id. */
  async comment(
    id: number | string,
    commentId: number | string,
    options: { author?: string } = {},
  ): Promise<Comment> {
    const projectId = toId(id, 'project id');
    const cid = toId(commentId, 'comment id');
    return this.session.apiGet<Comment>(`${await this.#commentsPath(projectId, options?.author)}/${cid}`);
  }

  /** Replies to one comment of the project. */
  replies(
    id: number | string,
    commentId: number | string,
    options: CommentListOptions = {},
  ): PagedList<Comment> {
    const { author, ...rest } = options ?? {};
    const projectId = toId(id, 'project id');
    const parent = toId(commentId, 'comment id');
    return this.list<Comment>(
      async () => `${await this.#commentsPath(projectId, author)}/${parent}/replies`,
      rest,
    );
  }

  /** A fresh token to read the project's body (they expire within minutes). */
  async token(id: number | string): Promise<string> {
    const project = await this.get(id);
    if (!project.project_token) {
      throw new ApiError({
        status: 403,
        url: `${this.session.apiHost}/projects/${project.id}`,
        method: 'GET',
        reason: 'the service gave no project_token for this project',
      });
    }
    return project.project_token;
  }

  /** The project's body. Fetches a token first unless one is given. */
  async getJson(
    id: number | string,
    options: { token?: string; signal?: AbortSignal } = {},
  ): Promise<ProjectJson> {
    const projectId = toId(id, 'project id');
    const body = await this.#readBody(projectId, options);
    if (!isProjectJson(body)) throw this.#notABody(projectId);
    return body;
  }

  #notABody(projectId: number): ApiError {
    return new ApiError({
      status: 200,
      url: `${this.session.projectsHost}/${projectId}`,
      method: 'GET',
      reason: 'the answer is not a Scratch 3 project body',
    });
  }

  /**
   * Downloads a project's body (one token and one body request, through the request budget) and
   * analyses it: `analyzeProject`'s summary, CT score, metrics and smells, with the project's id.
   * AnalysisError for a body it cannot read (`scratch2` for a Scratch 2 project).
   */
  async analyze(id: number | string, options: AnalyzeOptions = {}): Promise<AnalyzedProject> {
    const projectId = toId(id, 'project id');
    assertObject(options, 'options');
    const body = await this.#readBody(projectId, { signal: options.signal });
    // A Scratch 2 body is an object: analyzeProject names it (AnalysisError `scratch2`).
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw this.#notABody(projectId);
    return { id: projectId, ...analyzeProject(body as ProjectJson, options.limits) };
  }

  /**
   * Analyses many projects, a few at a time (`concurrency`, default 4), reporting `onProgress`
   * after each. In the order of `ids`. The first failure stops the rest and throws, unless
   * `skipErrors`: then a failed project is reported (`progress.error`) and left out.
   */
  analyzeAll(ids: readonly (number | string)[], options: AnalyzeAllOptions = {}): Promise<AnalyzedProject[]> {
    return analyzeEach((id, signal) => this.analyze(id, { signal, limits: options.limits }), ids, options);
  }

  async #readBody(projectId: number, options: { token?: string; signal?: AbortSignal }): Promise<unknown> {
    if (options.token !== undefined) assertString(options.token, 'token');
    const read = async (token: string) =>
      this.session.http.json<unknown>(`${this.session.projectsHost}/${projectId}`, {
        query: { token },
        signal: options.signal,
        download: true,
      });
    try {
      return await read(options.token ?? (await this.token(projectId)));
    } catch (error) {
      // A token can expire between the two requests: try once more with a fresh one.
      if (!(error instanceof ApiError && error.status === 403 && options.token === undefined)) throw error;
      return await read(await this.token(projectId));
    }
  }

  /** One asset's bytes, checked against the md5 in its name. */
  async downloadAsset(name: string, options: { signal?: AbortSignal } = {}): Promise<Uint8Array> {
    assertString(name, 'asset name');
    if (!isAssetName(name)) throw new RangeError(`${JSON.stringify(name)} is not an asset name (md5ext)`);
    const url = `${this.session.assetsHost}/internalapi/asset/${name}/get/`;
    const answer = await this.session.http.request(url, { signal: options.signal, download: true });
    const actual = md5Hex(answer.bytes);
    if (!name.startsWith(actual)) {
      throw new ApiError({
        status: answer.status,
        url,
        method: 'GET',
        reason: `asset bytes have md5 ${actual}`,
      });
    }
    return answer.bytes;
  }

  /**
   * The project's body and every distinct asset it names, fetched concurrently (bounded),
   * each once, each md5-checked.
   */
  async download(id: number | string, options: TransferOptions = {}): Promise<ProjectFiles> {
    const { concurrency, onProgress, signal } = transferOptions(options);
    const json = await this.getJson(id, { signal });
    const names = projectAssetNames(json);
    const assets = new Map<string, Uint8Array>();
    let bytes = 0;
    onProgress?.({ done: 0, total: names.length, bytes });
    await this.#reportingWaits(
      onProgress,
      () => ({ done: assets.size, total: names.length, bytes }),
      () =>
        mapConcurrent(
          names,
          concurrency,
          async (name, _index, each) => {
            const data = await this.downloadAsset(name, { signal: each });
            assets.set(name, data);
            bytes += data.byteLength;
            onProgress?.({ done: assets.size, total: names.length, bytes, asset: name });
          },
          signal,
        ),
    );
    // Keep the project's own order, not the order the transfers finished in.
    return { json, assets: new Map(names.map((name) => [name, assets.get(name)!])) };
  }

  /** Replaces the project's body. Owner only. */
  async setJson(id: number | string, json: ProjectJson | string): Promise<ProjectSaveAnswer> {
    const projectId = toId(id, 'project id');
    const body = typeof json === 'string' ? json : stringifyJson(json, undefined, 'project.json');
    if (!isProjectJson(typeof json === 'string' ? tryParseJson(json) : json)) {
      throw new TypeError('project body must be an object with a targets array');
    }
    return this.session.authedJson<ProjectSaveAnswer>(
      `${this.session.projectsHost}/${projectId}`,
      { method: 'PUT', body },
      { 'Content-Type': 'application/json' },
    );
  }

  /**
   * Uploads one asset. `name` is its md5ext, or just an extension (`png`) to have the name
   * computed. Returns the md5ext.
   */
  async uploadAsset(name: string, data: Uint8Array): Promise<string> {
    assertString(name, 'asset name or extension');
    const fullName = name.includes('.') && !name.startsWith('.') ? name : md5ext(data, name);
    checkAsset(fullName, data);
    await this.#postAsset(fullName, data);
    return fullName;
  }

  /** The upload itself, of an asset whose name and md5 are already checked. */
  async #postAsset(name: string, data: Uint8Array, signal?: AbortSignal): Promise<void> {
    await this.session.authedFetch(
      `${this.session.assetsHost}/${name}`,
      { method: 'POST', body: data, signal },
      { 'Content-Type': contentTypeFor(name) },
    );
  }

  /** Runs `work`, reporting the service's rate-limit pauses meanwhile through `onProgress`. */
  async #reportingWaits<R>(
    onProgress: ((progress: TransferProgress) => void) | undefined,
    current: () => TransferProgress,
    work: () => Promise<R>,
  ): Promise<R> {
    const unwatch =
      onProgress &&
      this.session.http.watchRateLimits((rateLimited) => onProgress({ ...current(), rateLimited }));
    try {
      return await work();
    } finally {
      unwatch?.();
    }
  }

  /**
   * Saves a whole project: checks every asset's name and md5 first (bad ones throw, all named,
   * and nothing is written; `repair: true` fixes them instead), uploads the assets
   * concurrently, then writes the body.
   * Accepts a Map / object / pairs of files, `{ json, assets }`, a bare body or `.sb3` bytes.
   */
  async save(
    id: number | string,
    project: ProjectInput,
    options: SaveOptions = {},
  ): Promise<ProjectSaveAnswer> {
    const projectId = toId(id, 'project id');
    const files = this.#checkedFiles(project, options);
    this.session.requireAuth('projects.save');
    await this.#uploadAssets(files.assets, options);
    return this.setJson(projectId, files.json);
  }

  /**
   * Creates a project (unshared) and answers its id. Without `json` it is an empty project (a
   * stage with a white backdrop); `json` and `assets` are checked and uploaded as {@link save}
   * does, assets first. The site titles a project without `title` "Untitled".
   */
  async create(options: ProjectCreateOptions = {}, transfer: SaveOptions = {}): Promise<number> {
    assertObject(options, 'options');
    const title = options.title === undefined ? undefined : projectTitle(options.title);
    if (options.assets !== undefined && options.json === undefined) throw new TypeError('assets need a json');
    const files =
      options.json === undefined
        ? emptyProject()
        : this.#checkedFiles({ json: options.json, assets: options.assets ?? new Map() }, transfer);
    this.session.requireAuth('projects.create');
    await this.#uploadAssets(files.assets, transfer);
    return this.#postProject(files.json, { is_remix: 0, title });
  }

  /**
   * Remixes a project you can see: a new unshared project of yours with its body (its assets are
   * the parent's, already on the server) and `remix.parent` set. Answers the new id.
   */
  async remix(id: number | string, options: { title?: string } = {}): Promise<number> {
    const parentId = toId(id, 'project id');
    assertObject(options, 'options');
    const title = options.title === undefined ? undefined : projectTitle(options.title);
    this.session.requireAuth('projects.remix');
    const json = await this.getJson(parentId);
    return this.#postProject(json, { is_remix: 1, original_id: parentId, title });
  }

  /**
   * Sets the project's thumbnail: PNG, JPEG or GIF bytes (the site takes animated GIFs, WIRE.md
   * §12.7) of at most {@link MAX_THUMBNAIL_BYTES}. Owner only.
   */
  async setThumbnail(id: number | string, image: Uint8Array): Promise<void> {
    const projectId = toId(id, 'project id');
    if (!(image instanceof Uint8Array)) throw new TypeError('image must be bytes (Uint8Array or Buffer)');
    const type = imageType(image);
    if (type === undefined) throw new RangeError('image must be a PNG, a JPEG or a GIF');
    if (image.byteLength > MAX_THUMBNAIL_BYTES) {
      throw new RangeError(`image must be at most ${MAX_THUMBNAIL_BYTES} bytes, got ${image.byteLength}`);
    }
    this.session.requireAuth('projects.setThumbnail');
    await this.session.authedFetch(
      `${this.session.hosts.site}/internalapi/project/thumbnail/${projectId}/set/`,
      { method: 'POST', body: image },
      { 'Content-Type': type },
    );
  }

  /** Turns comments on the project on or off. Owner only. Answers the updated project. */
  async setCommentsAllowed(id: number | string, allowed: boolean): Promise<Project> {
    const projectId = toId(id, 'project id');
    assertBoolean(allowed, 'allowed');
    return this.session.authedJson<Project>(`${this.session.apiHost}/projects/${projectId}`, {
      method: 'PUT',
      json: { comments_allowed: allowed },
    });
  }

  /** `POST {projects}/?is_remix=…&original_id=…&title=…` with the body; answers the new id. */
  async #postProject(json: ProjectJson, query: Record<string, string | number | undefined>): Promise<number> {
    const url = `${this.session.projectsHost}/`;
    const answer = await this.session.authedJson<ProjectSaveAnswer>(
      url,
      { method: 'POST', query, body: stringifyJson(json, undefined, 'project.json') },
      { 'Content-Type': 'application/json' },
    );
    const id = Number(answer?.['content-name']);
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new ApiError({
        status: 200,
        url,
        method: 'POST',
        body: answer,
        reason: 'the answer names no new project id',
      });
    }
    return id;
  }

  /** The files of a project to upload, checked (or repaired) as {@link save} describes. */
  #checkedFiles(project: ProjectInput, options: SaveOptions): ProjectFiles {
    transferOptions(options);
    if (options.repair !== undefined && typeof options.repair !== 'boolean')
      throw new TypeError('repair must be a boolean');
    let files = toProjectFiles(project);
    if (options.repair) files = repairProject(files);
    for (const [name, data] of files.assets) {
      if (!(data instanceof Uint8Array))
        throw new TypeError(`asset ${name} must be bytes (Uint8Array or Buffer)`);
    }
    const bad = checkProject(files).filter((problem) => problem.kind !== 'missing-asset');
    if (bad.length > 0) {
      throw new RangeError(
        `${bad.length} file(s) cannot be saved as they are (save with { repair: true } to fix them): ` +
          bad.map((problem) => problem.message).join('; '),
      );
    }
    return files;
  }

  /** Uploads checked assets concurrently (bounded), reporting progress. */
  async #uploadAssets(assets: ReadonlyMap<string, Uint8Array>, options: TransferOptions): Promise<void> {
    const { concurrency, onProgress, signal } = transferOptions(options);
    const entries = [...assets];
    let done = 0;
    let bytes = 0;
    onProgress?.({ done, total: entries.length, bytes });
    await this.#reportingWaits(
      onProgress,
      () => ({ done, total: entries.length, bytes }),
      () =>
        mapConcurrent(
          entries,
          concurrency,
          async ([name, data], _index, each) => {
            // checkProject has hashed every asset and checked its name: not again here.
            await this.#postAsset(name, data, each);
            done++;
            bytes += data.byteLength;
            onProgress?.({ done, total: entries.length, bytes, asset: name });
          },
          signal,
        ),
    );
  }

  /** Changes title, instructions and/or description. Owner only. Answers the updated project. */
  async setMetadata(id: number | string, metadata: ProjectMetadata): Promise<Project> {
    const projectId = toId(id, 'project id');
    assertObject(metadata, 'metadata');
    const body: ProjectMetadata = {};
    for (const [key, value] of Object.entries(metadata)) {
      if (!(METADATA_KEYS as readonly string[]).includes(key)) {
        throw new TypeError(`metadata.${key} is not editable (expected ${METADATA_KEYS.join(', ')})`);
      }
      if (value === undefined) continue;
      assertString(value, `metadata.${key}`);
      body[key as keyof ProjectMetadata] = value;
    }
    if (Object.keys(body).length === 0) throw new TypeError('metadata must set at least one field');
    return this.session.authedJson<Project>(`${this.session.apiHost}/projects/${projectId}`, {
      method: 'PUT',
      json: body,
    });
  }

  /** Sets the title. */
  async setTitle(id: number | string, title: string): Promise<Project> {
    return this.setMetadata(id, { title });
  }

  /** Sets the instructions ("How to use"). */
  async setInstructions(id: number | string, instructions: string): Promise<Project> {
    return this.setMetadata(id, { instructions });
  }

  /** Sets the description ("Notes and credits"). */
  async setDescription(id: number | string, description: string): Promise<Project> {
    return this.setMetadata(id, { description });
  }

  /** Shares the project. Owner only. */
  async share(id: number | string): Promise<Project> {
    return this.#proxy(id, 'share');
  }

  /** Unshares the project. Owner only. */
  async unshare(id: number | string): Promise<Project> {
    return this.#proxy(id, 'unshare');
  }

  async #proxy(id: number | string, action: 'share' | 'unshare'): Promise<Project> {
    const projectId = toId(id, 'project id');
    return this.session.authedJson<Project>(`${this.session.apiHost}/proxy/projects/${projectId}/${action}`, {
      method: 'PUT',
    });
  }

  // ---- writes of WIRE.md §11.4-11.5: comments, loves, favorites (login) --------------------------

  /**
   * Posts a comment (or, with `parentId`, a reply) on the project. Answers the comment as the
   * service echoes it: **without `author.username`**. A refusal (`isFlood`, `isBad`, …) throws
   * {@link CommentRejectedError}; comments are never retried.
   */
  async postComment(
    id: number | string,
    content: string,
    options?: CommentPostOptions,
  ): Promise<PostedComment> {
    return postApiComment(this.session, 'project', toId(id, 'project id'), content, options);
  }

  /** Deletes a comment of the project: your own, or any on your own project. */
  async deleteComment(id: number | string, commentId: number | string): Promise<void> {
    return deleteApiComment(this.session, 'project', toId(id, 'project id'), commentId);
  }

  /** Reports a comment of the project to the moderators. */
  async reportComment(id: number | string, commentId: number | string): Promise<CommentReport> {
    return reportApiComment(this.session, 'project', toId(id, 'project id'), commentId);
  }

  /** Loves the project. `statusChanged` is false when it was loved already. */
  async love(id: number | string): Promise<LoveAnswer> {
    return this.#mark<LoveAnswer>(id, 'loves', 'POST');
  }

  /** Takes the love back. */
  async unlove(id: number | string): Promise<LoveAnswer> {
    return this.#mark<LoveAnswer>(id, 'loves', 'DELETE');
  }

  /** Adds the project to your favorites. */
  async favorite(id: number | string): Promise<FavoriteAnswer> {
    return this.#mark<FavoriteAnswer>(id, 'favorites', 'POST');
  }

  /** Removes the project from your favorites. */
  async unfavorite(id: number | string): Promise<FavoriteAnswer> {
    return this.#mark<FavoriteAnswer>(id, 'favorites', 'DELETE');
  }

  /** Whether you love the project. */
  async isLoved(id: number | string): Promise<boolean> {
    const answer = await this.#markState<Partial<LoveAnswer>>(id, 'loves');
    return answer?.userLove === true;
  }

  /** Whether the project is among your favorites. */
  async isFavorited(id: number | string): Promise<boolean> {
    const answer = await this.#markState<Partial<FavoriteAnswer>>(id, 'favorites');
    return answer?.userFavorite === true;
  }

  /** `POST`/`DELETE {api}/proxy/projects/<id>/<loves|favorites>/user/<me>` (WIRE.md §11.5). */
  async #mark<T>(id: number | string, what: 'loves' | 'favorites', method: 'POST' | 'DELETE'): Promise<T> {
    const projectId = toId(id, 'project id');
    this.session.requireAuth(`projects.${what === 'loves' ? 'love' : 'favorite'}`);
    const me = encodeURIComponent(this.session.username!);
    return this.session.authedJson<T>(
      `${this.session.apiHost}/proxy/projects/${projectId}/${what}/user/${me}`,
      { method },
      { Referer: `${this.session.hosts.site}/projects/${projectId}/` },
    );
  }

  async #markState<T>(id: number | string, what: 'loves' | 'favorites'): Promise<T> {
    const projectId = toId(id, 'project id');
    this.session.requireAuth(`projects.${what === 'loves' ? 'isLoved' : 'isFavorited'}`);
    const me = encodeURIComponent(this.session.username!);
    return this.session.authedJson<T>(`${this.session.apiHost}/projects/${projectId}/${what}/user/${me}`);
  }

  /**
   * The studios the project is in (`{api}/users/<author>/projects/<id>/studios`, as
   * scratchattach's `Project.studios` reads them), 40 a page. `author` saves the request that
   * looks the author up.
   */
  studios(id: number | string, options: CommentListOptions = {}): PagedList<Studio> {
    const { author, ...rest } = options ?? {};
    const projectId = toId(id, 'project id');
    return this.list<Studio>(async () => `${await this.#ownerPath(projectId, author)}/studios`, rest);
  }

  async #commentsPath(projectId: number, author?: string): Promise<string> {
    return `${await this.#ownerPath(projectId, author)}/comments`;
  }

  /** `/users/<author>/projects/<id>`, the author looked up when not given. */
  async #ownerPath(projectId: number, author?: string): Promise<string> {
    const username = author ?? (await this.get(projectId)).author.username;
    assertString(username, 'author');
    return `/users/${encodeURIComponent(username)}/projects/${projectId}`;
  }
}

function transferOptions(options: TransferOptions) {
  assertObject(options, 'options');
  const concurrency =
    options.concurrency === undefined
      ? DEFAULT_CONCURRENCY
      : assertInteger(options.concurrency, 'concurrency', 1, 64);
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new TypeError('onProgress must be a function');
  }
  return { concurrency, onProgress: options.onProgress, signal: options.signal };
}

/** A project title: a string of 1 to 100 characters, not blank. */
function projectTitle(value: unknown): string {
  assertNonEmptyString(value, 'title');
  if (value.length > MAX_TITLE) throw new RangeError(`title must be at most ${MAX_TITLE} characters long`);
  return value;
}

/** The media type of PNG or JPEG bytes, by their signature; `undefined` for anything else. */
function imageType(bytes: Uint8Array): 'image/png' | 'image/jpeg' | 'image/gif' | undefined {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 6));
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  return undefined;
}

export { projectAssetNames };
