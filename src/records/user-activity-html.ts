/**
 * A profile's activity page (`{site}/messages/ajax/user-activity/`, WIRE.md §11.2), read from its
 * HTML: one `<li>` per item, its `<div>` holding `<span class="actor">`, a verb, one or two links
 * and `<span class="time">` with a relative time (`2 days, 3 hours ago`, spaces may be U+00A0).
 * A class's public activity (WIRE.md §12.2.3) is the same list without the classes.
 */
import type { ActivityTarget, UserActivity, UserActivityType } from './activity-records.js';
import {
  childElements,
  findElement,
  findElements,
  type HtmlElement,
  ownTexts,
  parseHtml,
  textOf,
} from './html.js';
import { parseTimeSince } from './time-since.js';

/** The verbs the page writes, and what each item is. The longest verbs come first. */
const VERBS: readonly (readonly [string, UserActivityType])[] = [
  ['is now following the studio', 'followstudio'],
  ['is now following', 'followuser'],
  ['shared the project', 'shareproject'],
  ['became a curator of', 'becomecurator'],
  ['was promoted to manager of', 'becomeownerstudio'],
  ['joined scratch', 'userjoin'],
  ['favorited', 'favoriteproject'],
  ['remixed', 'remixproject'],
  ['loved', 'loveproject'],
  ['added', 'addprojecttostudio'],
];

function typeOf(verb: string): UserActivityType {
  const lower = verb.toLowerCase();
  for (const [start, type] of VERBS) if (lower.startsWith(start)) return type;
  return 'other';
}

/** What a link points at: `/projects/<id>/`, `/studios/<id>/`, `/users/<name>/`. */
function targetOf(link: HtmlElement): ActivityTarget {
  const href = link.attribs.href ?? '';
  const name = textOf(link);
  let segments: string[] = [];
  try {
    segments = new URL(href, 'https://scratch.mit.edu').pathname.split('/').filter((s) => s !== '');
  } catch {
    // an unreadable link names nothing
  }
  const [section, key] = segments;
  const numeric = key !== undefined && /^\d+$/.test(key) ? Number(key) : null;
  if (section === 'projects') return { kind: 'project', id: numeric, name, href };
  if (section === 'studios') return { kind: 'studio', id: numeric, name, href };
  if (section === 'users' && key !== undefined)
    return { kind: 'user', id: decodeURIComponent(key), name, href };
  return { kind: 'other', id: null, name, href };
}

/** The item of one `<li>`, or `null` when it is not an activity item. */
function itemOf(li: HtmlElement, now: number): UserActivity | null {
  const body = childElements(li).find((el) => el.name === 'div') ?? li;
  // A class's public activity writes the same items with bare spans: actor first, time last.
  const spans = childElements(body).filter((el) => el.name === 'span');
  const actor =
    findElement(body, { tag: 'span', className: 'actor' }) ?? (spans.length >= 2 ? spans[0] : null);
  if (!actor) return null;
  const time =
    findElement(body, { tag: 'span', className: 'time' }) ?? (spans.length >= 2 ? spans.at(-1)! : null);
  const links = childElements(body).filter((el) => el.name === 'a');
  const verb = ownTexts(body)[0] ?? '';
  const ago = time ? textOf(time) : '';
  const elapsed = parseTimeSince(ago);
  return {
    type: typeOf(verb),
    actor_username: textOf(actor),
    verb,
    target: links[0] ? targetOf(links[0]) : null,
    secondTarget: links[1] ? targetOf(links[1]) : null,
    datetime_created: new Date(now - (elapsed ?? 0)).toISOString(),
    ago,
  };
}

/**
 * The items of a profile's activity page, newest first. `now` is when the page was read: the
 * dates are its relative times taken back from it.
 */
export function parseUserActivity(html: string, now = Date.now()): UserActivity[] {
  const document = parseHtml(html);
  const items: UserActivity[] = [];
  for (const li of findElements(document, { tag: 'li' })) {
    const item = itemOf(li, now);
    if (item) items.push(item);
  }
  return items;
}
