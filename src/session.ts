/**
 * The `Session`: owns the cookie jar and the login state, and exposes the resource groups.
 * Login, resume and logout follow WIRE.md §2 step by step.
 */
import { inspect } from 'node:util';
import { Cloud, type CloudOptions } from './cloud/cloud.js';
import { ApiError, LoginRequiredError } from './errors.js';
import type { AuthedRequestOptions, ClientCore } from './http/client-core.js';
import { type CookieJarLike, CSRF_COOKIE, SESSION_COOKIE } from './http/cookies.js';
import { type Hosts, resolveHosts } from './http/hosts.js';
import { type FetchLike, type HttpAnswer, HttpClient, type RequestOptions, readJson } from './http/http.js';
import type { PagedList } from './http/paging.js';
import type { RateLimit } from './http/request-budget.js';
import type { FeedItem } from './records/activity-records.js';
import { parseAnswer } from './records/answers.js';
import type { Featured, Health, LoginAnswer, NewsItem, SessionInfo } from './records/records.js';
import { assertNonEmptyString, assertObject, assertString } from './records/validate.js';
import { hideSecrets } from './redact.js';
import { Backpack } from './resources/backpack.js';
import { Classrooms } from './resources/classrooms.js';
import { Forums } from './resources/forums.js';
import { Messages } from './resources/messages.js';
import { MyStuff } from './resources/my-stuff.js';
import { Projects } from './resources/projects.js';
import { apiList, type ListOptions } from './resources/resource.js';
import { Search } from './resources/search.js';
import { readStatistics, type SiteStatistics } from './resources/statistics.js';
import { Studios } from './resources/studios.js';
import { Users } from './resources/users.js';

export interface SessionOptions {
  /**
   * A tough-cookie `CookieJar` to start from, e.g. one restored with `CookieJar.deserialize` to
   * resume a login (the ESM or the CommonJS build of tough-cookie).
   */
  jar?: CookieJarLike;
  /** A fetch-compatible function (default: undici with keep-alive). */
  fetch?: FetchLike;
  /** The User-Agent sent with every request. */
  userAgent?: string;
  /** Base URLs; each missing role defaults to the real platform. */
  hosts?: Partial<Hosts>;
  /** Milliseconds before a request is abandoned (default 30 000). */
  timeout?: number;
  /** Retries of reads after 429, 5xx or network errors (default 3). */
  retries?: number;
  /**
   * Cap on the decoded size of an API answer in bytes (default 16 MiB). A larger answer is cut
   * while it streams in and rejects with an `ApiError` whose `limit` is `'maxResponseBytes'`.
   */
  maxResponseBytes?: number;
  /** Cap on the decoded size of a project body or an asset download in bytes (default 256 MiB). */
  maxDownloadBytes?: number;
  /**
   * The request budget: requests a second to the platform's hosts, counted together (default 10,
   * with a burst of 5), or `{ perSecond, burst }`. Every request of the session waits its turn in
   * it; a 429 pauses it for the `Retry-After` the service asks and lowers the rate for a while.
   * `Infinity` turns pacing off (a 429's pause is still kept).
   */
  rateLimit?: number | RateLimit;
}

export type { AuthedRequestOptions } from './http/client-core.js';

/**
 * A client of the platform. Anonymous until {@link login}; every read works without login.
 *
 * ```ts
 * const session = await Session.login('griffpatch', process.env.SCRATCH_PASSWORD!);
 * const me = await session.users.get(session.username!);
 * ```
 */
export class Session implements ClientCore {
  /** Base URLs of every role. */
  readonly hosts: Hosts;
  /** Users: profiles, followers, following, favorites, projects. */
  readonly users: Users;
  /** Projects: metadata, bodies, assets, comments, writes. */
  readonly projects: Projects;
  /** Studios: metadata, projects, curators, managers, comments. */
  readonly studios: Studios;
  /** Search and explore. */
  readonly search: Search;
  /** The logged-in user's messages: list, count, clear, and a poller of new ones. */
  readonly messages: Messages;
  /** The forums: categories, a category's topics, a topic's posts and feed (no login). */
  readonly forums: Forums;
  /** Classrooms: a class, its students, studios and activity; an educator's classes and class writes. */
  readonly classrooms: Classrooms;
  /** The logged-in user's backpack: list, download, delete. */
  readonly backpack: Backpack;
  /** "My Stuff" of the logged-in user: projects, studios, counts. */
  readonly myStuff: MyStuff;
  /** @internal the HTTP core; resource groups use it. */
  readonly http: HttpClient;

  #username: string | null = null;
  #userId: number | null = null;
  #xToken: string | null = null;

  constructor(options: SessionOptions = {}) {
    assertObject(options, 'options');
    if (options.fetch !== undefined && typeof options.fetch !== 'function') {
      throw new TypeError('options.fetch must be a function');
    }
    if (options.userAgent !== undefined) assertNonEmptyString(options.userAgent, 'options.userAgent');
    this.hosts = resolveHosts(options.hosts);
    this.http = new HttpClient({
      jar: options.jar,
      fetch: options.fetch,
      userAgent: options.userAgent,
      timeout: options.timeout,
      retries: options.retries,
      maxResponseBytes: options.maxResponseBytes,
      maxDownloadBytes: options.maxDownloadBytes,
      rateLimit: options.rateLimit,
      // The platform's limit counts an address's requests to all its hosts together.
      hostGroups: [
        [
          this.hosts.site,
          this.hosts.api,
          this.hosts.projects,
          this.hosts.assets,
          this.hosts.cloudHttp,
          this.hosts.backpack,
        ],
      ],
    });
    this.users = new Users(this);
    this.projects = new Projects(this);
    this.studios = new Studios(this);
    this.search = new Search(this);
    this.messages = new Messages(this);
    this.forums = new Forums(this);
    this.classrooms = new Classrooms(this);
    this.backpack = new Backpack(this);
    this.myStuff = new MyStuff(this);
  }

  /** Creates a session and logs in. Throws {@link ApiError} (status 403) when the login is refused. */
  static async login(username: string, password: string, options: SessionOptions = {}): Promise<Session> {
    const session = new Session(options);
    await session.login(username, password);
    return session;
  }

  /** The cookie jar shared by every host. Serialize it to resume the login later. */
  get jar(): HttpClient['jar'] {
    return this.http.jar;
  }
  /** True after a successful {@link login} or {@link refreshSession}. */
  get loggedIn(): boolean {
    return this.#xToken !== null;
  }
  /** The logged-in user's name, or `null`. */
  get username(): string | null {
    return this.#username;
  }
  /** The logged-in user's id, or `null`. */
  get userId(): number | null {
    return this.#userId;
  }
  /** The X-Token of the logged-in user (a secret: never print it). */
  get xToken(): string | null {
    return this.#xToken;
  }
  /** The CSRF token from the jar (a secret: never print it). */
  get csrfToken(): string | null {
    return this.http.cookie(this.hosts.site, CSRF_COOKIE) ?? null;
  }
  /** Base URL of the site (login, session). */
  get siteHost(): string {
    return this.hosts.site;
  }
  /** Base URL of the REST API. */
  get apiHost(): string {
    return this.hosts.api;
  }
  /** Base URL of the project bodies. */
  get projectsHost(): string {
    return this.hosts.projects;
  }
  /** Base URL of the assets (costumes, sounds). */
  get assetsHost(): string {
    return this.hosts.assets;
  }

  /** Logs in (WIRE §2): fetches a CSRF token, posts the credentials, then reads `/session/`. */
  async login(username: string, password: string): Promise<SessionInfo> {
    assertNonEmptyString(username, 'username');
    assertString(password, 'password');
    if (password === '') throw new RangeError('password must not be empty');
    await this.#fetchCsrf();
    const url = `${this.hosts.site}/login/`;
    // The password is a secret of this request: no error of it may show it.
    const secrets = [password];
    const answer = await this.http.request(url, {
      method: 'POST',
      json: { username, password },
      headers: this.#siteHeaders(),
      secrets,
    });
    // Real answers may lack `num_tries` and carry `redirect`: only `success` and `msg` matter here.
    const rows = tryRecord(answer) as LoginAnswer[] | LoginAnswer | undefined;
    const row = Array.isArray(rows) ? rows[0] : rows;
    if (row?.success !== 1) {
      throw new ApiError({
        status: 403,
        url,
        method: 'POST',
        body: rows,
        reason: typeof row?.msg === 'string' && row.msg ? row.msg : 'login refused',
        secrets: this.http.secretsFor(url, secrets),
      });
    }
    const info = await this.refreshSession();
    if (!this.loggedIn) {
      throw new ApiError({
        status: 403,
        url,
        method: 'POST',
        reason: 'login answered success but no session was set',
      });
    }
    return info;
  }

  /**
   * Reads `/session/` and updates the login state from it. Use after restoring a jar:
   * `new Session({ jar: await CookieJar.deserialize(saved) }).refreshSession()`.
   */
  async refreshSession(): Promise<SessionInfo> {
    const url = `${this.hosts.site}/session/`;
    const answer = await this.http.request(url, {
      headers: { 'X-Requested-With': 'XMLHttpRequest', Referer: this.hosts.site },
    });
    const parsed = readJson<unknown>(
      answer,
      'GET',
      () => this.http.secretsFor(url),
      (text) => parseAnswer(text, answer.url),
    );
    // Logged out, the answer is `{}`, or `{ flags }` without `user`; fields we do not know are kept.
    const info = (
      parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}
    ) as SessionInfo;
    const user = info.user;
    if (user && typeof user.token === 'string' && typeof user.username === 'string') {
      this.#username = user.username;
      this.#userId = typeof user.id === 'number' ? user.id : null;
      this.#xToken = user.token;
      this.http.rememberSecret(user.token);
    } else {
      this.#clearAuth();
    }
    // It holds the X-Token: printing it must not show it.
    return hideSecrets(info);
  }

  /** Logs out on the server and forgets the session locally (WIRE §2 step 5). */
  async logout(): Promise<void> {
    this.requireAuth('logout');
    const csrf = await this.#ensureCsrf();
    await this.http.request(`${this.hosts.site}/accounts/logout/`, {
      method: 'POST',
      body: `csrfmiddlewaretoken=${encodeURIComponent(csrf)}`,
      acceptRedirect: true, // the real site answers a logout with a redirect home
      headers: { ...this.#siteHeaders(), 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    this.#clearAuth();
    for (const cookie of await this.jar.getCookies(this.hosts.site)) {
      if (cookie.key === SESSION_COOKIE || cookie.key === CSRF_COOKIE) {
        await this.jar.store.removeCookie(cookie.domain, cookie.path, cookie.key);
      }
    }
  }

  /** Throws {@link LoginRequiredError} unless logged in. */
  requireAuth(what?: string): void {
    if (!this.loggedIn) throw new LoginRequiredError(what);
  }

  /** Headers of an authenticated call (WIRE §2 step 4). Secret: never log them. */
  authHeaders(): Record<string, string> {
    this.requireAuth();
    const headers = this.#siteHeaders();
    headers['X-Token'] = this.#xToken!;
    // Printing them (REPL, notebook) shows `[redacted]`; spreading or sending them is unchanged.
    return hideSecrets(headers);
  }

  /** An authenticated request to any platform URL; non-2xx answers throw {@link ApiError}. */
  async authedFetch(
    url: string,
    options: AuthedRequestOptions = {},
    extraHeaders: Record<string, string> = {},
  ): Promise<HttpAnswer> {
    assertNonEmptyString(url, 'url');
    this.requireAuth();
    await this.#ensureCsrf();
    return this.http.request(url, { ...options, headers: { ...this.authHeaders(), ...extraHeaders } });
  }

  /** {@link authedFetch}, then the answer as JSON. */
  async authedJson<T>(
    url: string,
    options: AuthedRequestOptions = {},
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    const answer = await this.authedFetch(url, options, extraHeaders);
    return this.#record<T>(answer, (options.method ?? 'GET').toUpperCase(), url);
  }

  /**
   * GET `{api}{path}` as JSON. Sends the X-Token when logged in, so the owner sees
   * what only the owner may see (an unshared project).
   */
  async apiGet<T>(path: string, params?: RequestOptions['query'], signal?: AbortSignal): Promise<T> {
    assertString(path, 'path');
    if (!path.startsWith('/')) throw new TypeError(`path must start with "/", got ${JSON.stringify(path)}`);
    const headers: Record<string, string> = this.#xToken ? { 'X-Token': this.#xToken } : {};
    const url = `${this.hosts.api}${path}`;
    const answer = await this.http.request(url, { query: params, headers, signal });
    return this.#record<T>(answer, 'GET', url);
  }

  /**
   * An API answer as a record: parsed with bounded nesting, exact big ids, `https:` URLs and UTC
   * dates (WIRE §10). A project token in it becomes a secret of this session, hidden from print.
   */
  #record<T>(answer: HttpAnswer, method: string, url: string): T {
    const value = readJson<unknown>(
      answer,
      method,
      () => this.http.secretsFor(url),
      (text) => parseAnswer(text, answer.url),
    );
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const token = (value as { project_token?: unknown }).project_token;
      if (typeof token === 'string') {
        this.http.rememberSecret(token);
        hideSecrets(value);
      }
    }
    return value as T;
  }

  /** The service's health report. */
  health(): Promise<Health> {
    return this.apiGet<Health>('/health');
  }

  /** The front page's news. */
  news(): Promise<NewsItem[]> {
    return this.apiGet<NewsItem[]>('/news');
  }

  /** The front page's rows of featured projects and studios. */
  featured(): Promise<Featured> {
    return this.apiGet<Featured>('/proxy/featured');
  }

  /**
   * "What's happening" (login): what the users you follow did lately, newest first (WIRE.md
   * §11.2): shares, loves, favorites, follows, remixes, curating.
   */
  feed(options: ListOptions = {}): PagedList<FeedItem> {
    this.requireAuth('feed');
    return apiList<FeedItem>(
      this,
      `/users/${encodeURIComponent(this.#username!)}/following/users/activity`,
      options,
    );
  }

  /** The site's statistics (no login): daily totals, monthly series, monthly visits (WIRE.md §11.7). */
  statistics(options: { signal?: AbortSignal } = {}): Promise<SiteStatistics> {
    return readStatistics(this, options?.signal);
  }

  /**
   * A connection to a project's cloud variables. On the session's own cloud host
   * (`hosts.cloudWs`: the platform's, or the sandbox's) it needs a login and sends the session
   * cookie and `Origin`; with a custom `host` it is unauthenticated and sends no cookie.
   *
   * Each call makes a new connection (a `Cloud` of its own, with its own options and listeners):
   * `disconnect()` it when done, or its reconnects keep the process alive. A recorder that got it
   * unconnected (`store.recordCloud(session.cloud(id))`) disconnects it when it stops.
   * @throws LoginRequiredError on the session's cloud host without a login
   */
  cloud(projectId: number | string, options: CloudOptions = {}): Cloud {
    return new Cloud({ ...options, projectId, session: this });
  }

  /** Redacted view for `console.log` and the REPL: no token, no cookie. */
  [inspect.custom](depth: number, options: { stylize: (text: string, style: string) => string }): string {
    const name = this.#username ? options.stylize(JSON.stringify(this.#username), 'string') : 'anonymous';
    if (depth < 0) return `Session <${name}>`;
    return `Session { user: ${name}, loggedIn: ${this.loggedIn}, site: ${this.hosts.site}, xToken: [redacted], sessionId: [redacted] }`;
  }

  /** A JSON view without secrets (`JSON.stringify(session)`). */
  toJSON(): { username: string | null; userId: number | null; loggedIn: boolean; hosts: Hosts } {
    return { username: this.#username, userId: this.#userId, loggedIn: this.loggedIn, hosts: this.hosts };
  }

  #siteHeaders(): Record<string, string> {
    const headers: Record<string, string> = {
      'X-Requested-With': 'XMLHttpRequest',
      Referer: this.hosts.site,
    };
    const csrf = this.csrfToken;
    if (csrf) headers['X-CSRFToken'] = csrf;
    return headers;
  }

  async #fetchCsrf(): Promise<string> {
    const answer = await this.http.request(`${this.hosts.site}/csrf_token/`, {
      headers: { 'X-Requested-With': 'XMLHttpRequest', Referer: this.hosts.site },
    });
    const csrf = this.csrfToken;
    if (!csrf) {
      throw new ApiError({
        status: answer.status,
        url: `${this.hosts.site}/csrf_token/`,
        method: 'GET',
        reason: 'the site set no scratchcsrftoken cookie',
      });
    }
    return csrf;
  }

  async #ensureCsrf(): Promise<string> {
    return this.csrfToken ?? this.#fetchCsrf();
  }

  #clearAuth(): void {
    this.#username = null;
    this.#userId = null;
    this.#xToken = null;
  }
}

/** The answer as a record, or `undefined` when it is not JSON (a login page in HTML, say). */
function tryRecord(answer: HttpAnswer): unknown {
  try {
    return parseAnswer(new TextDecoder().decode(answer.bytes), answer.url);
  } catch {
    return undefined;
  }
}
