/**
 * Usernames the presentation layer has seen, by user id, so that a record carrying only an id (a
 * studio's `host`, a studio project's `actor_id`, an author block without `username`) can show a
 * name when one is known. Fed by every table laid out; bounded, oldest forgotten first.
 */

/** Most ids remembered. */
const MAX_KNOWN = 10_000;

const known = new Map<number, string>();

/** Remembers that user `id` is `username` (ignored unless both look real). */
export function rememberUser(id: unknown, username: unknown): void {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof username !== 'string' || username === '')
    return;
  known.delete(id); // re-insert: most recent last
  known.set(id, username);
  if (known.size > MAX_KNOWN) known.delete(known.keys().next().value as number);
}

/** The username of user `id`, if seen. */
export function knownUsername(id: unknown): string | undefined {
  return typeof id === 'number' ? known.get(id) : undefined;
}

/** A user as a table shows it: the username when known, else `#<id>`, else empty. */
export function userLabel(id: unknown, username?: unknown): string {
  if (typeof username === 'string' && username !== '') return username;
  const name = knownUsername(id);
  if (name !== undefined) return name;
  return typeof id === 'number' ? `#${id}` : '';
}

/** Feeds the registry from any record that names a user with its id. */
export function learnUsers(record: unknown): void {
  if (typeof record !== 'object' || record === null) return;
  const r = record as Record<string, unknown>;
  if (typeof r.username === 'string' && typeof r.id === 'number' && typeof r.profile === 'object')
    rememberUser(r.id, r.username);
  const author = r.author as Record<string, unknown> | undefined;
  if (author && typeof author === 'object') rememberUser(author.id, author.username);
  if (typeof r.creator_id === 'number') rememberUser(r.creator_id, r.username);
}
