import { badRequest } from '../errors.js';

/**
 * The `dateLimit` query of the activity and message lists: an ISO date (`2025-05-27T05:15:56.000Z`);
 * rows at or before it are listed. `null` when absent; anything that is not a date is a 400.
 */
export function parseDateLimit(query: URLSearchParams): number | null {
  const text = query.get('dateLimit');
  if (text === null || text === '') return null;
  const ms = text.length <= 40 ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw badRequest('dateLimit must be an ISO-8601 date');
  return ms;
}
