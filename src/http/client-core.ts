/**
 * The narrow view of a client that resource groups and cloud connections depend on (as
 * openai-node's resources depend on its client core, not on the client class). `Session`
 * implements it; nothing here imports `Session`, so no module circle runs through it.
 */
import type { Hosts } from './hosts.js';
import type { HttpAnswer, HttpClient, RequestOptions } from './http.js';

/** Request options of the authenticated calls (headers are the client's). */
export type AuthedRequestOptions = Omit<RequestOptions, 'headers'>;

/** What a resource group or a cloud connection needs from its client. */
export interface ClientCore {
  /** Base URLs of every role. */
  readonly hosts: Hosts;
  /** The HTTP core (cookie jar, timeouts, retries, size limits). */
  readonly http: HttpClient;
  /** True when logged in. */
  readonly loggedIn: boolean;
  /** The logged-in user's name, or `null`. */
  readonly username: string | null;
  /** The logged-in user's id, or `null`. */
  readonly userId: number | null;
  readonly apiHost: string;
  readonly projectsHost: string;
  readonly assetsHost: string;
  /** Throws `LoginRequiredError` unless logged in. */
  requireAuth(what?: string): void;
  /** GET `{api}{path}` as a normalized JSON record. */
  apiGet<T>(path: string, params?: RequestOptions['query'], signal?: AbortSignal): Promise<T>;
  /** An authenticated request to any platform URL. */
  authedFetch(
    url: string,
    options?: AuthedRequestOptions,
    extraHeaders?: Record<string, string>,
  ): Promise<HttpAnswer>;
  /** {@link authedFetch}, then the answer as a normalized JSON record. */
  authedJson<T>(
    url: string,
    options?: AuthedRequestOptions,
    extraHeaders?: Record<string, string>,
  ): Promise<T>;
}
