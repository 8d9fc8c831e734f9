/** The site's relative time of a page (`2&nbsp;days, 3&nbsp;hours ago`, WIRE.md §11.2). */
import { formatTimeSince } from '../../records/time-since.js';

/** How long before `now` the ISO time `since` was, as the site's HTML writes it. */
export function timeSinceHtml(since: string, now: number): string {
  return formatTimeSince(now - Date.parse(since)).replace(/\u00a0/g, '&nbsp;');
}
