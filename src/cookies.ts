/** Names of the platform's cookies (WIRE.md §2), shared by the client and the sandbox. */

/** The session cookie; its value is sent back quoted, as the site sets it. */
export const SESSION_COOKIE = 'scratchsessionsid';

/** The CSRF cookie; authenticated writes repeat its value in the `X-CSRFToken` header. */
export const CSRF_COOKIE = 'scratchcsrftoken';
