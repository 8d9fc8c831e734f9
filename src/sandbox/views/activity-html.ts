/**
 * A profile's activity as the real site serves it (`/messages/ajax/user-activity/`, WIRE.md §11.2):
 * an HTML list, one `<li>` per item with the actor's avatar, a `<div>` holding
 * `<span class="actor">`, a verb, one or two links and `<span class="time">` with a relative
 * time in Django's `timesince` style (`2&nbsp;days, 3&nbsp;hours ago`).
 */
import { escapeHtml } from '../../records/html.js';
import type { UserActivityRecord } from '../state/activity-log.js';
import type { Links } from './links.js';
import { timeSinceHtml } from './time-since-html.js';

const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
const project = (id: number, title: string) => link(`/projects/${id}/`, title);
const studio = (id: number, title: string) => link(`/studios/${id}/`, title);
const user = (name: string) => link(`/users/${name}/`, name);

/** The verb and links of one item. */
function phrase(row: UserActivityRecord): string {
  switch (row.type) {
    case 'loveproject':
      return `loved ${project(row.project_id, row.title)}`;
    case 'favoriteproject':
      return `favorited ${project(row.project_id, row.project_title)}`;
    case 'shareproject':
      return `shared the project ${project(row.project_id, row.title)}`;
    case 'remixproject':
      return `remixed ${project(row.parent_id, row.parent_title)} as ${project(row.project_id, row.title)}`;
    case 'followuser':
      return `is now following ${user(row.followed_username)}`;
    case 'followstudio':
      return `is now following the studio ${studio(row.gallery_id, row.title)}`;
    case 'becomecurator':
      return `became a curator of ${studio(row.gallery_id, row.title)}`;
    case 'becomeownerstudio':
      return `was promoted to manager of ${studio(row.gallery_id, row.gallery_title)}`;
    case 'addprojecttostudio':
      return `added ${project(row.project_id, row.title)} to ${studio(row.gallery_id, row.gallery_title)}`;
    case 'userjoin':
      return 'joined Scratch';
  }
}

/** The activity list of one user, newest first, relative to `now`. */
export function activityHtml(rows: readonly UserActivityRecord[], links: Links, now = Date.now()): string {
  const items = rows.map((row) => {
    const avatar = links.protocolRelative(links.userImage(row.actor_id, '60x60'));
    return [
      '<li>',
      `  <a href="/users/${escapeHtml(row.actor_username)}/"><img class="avatar" src="${escapeHtml(avatar)}" width="60" height="60" alt="${escapeHtml(row.actor_username)}"></a>`,
      '  <div>',
      `    <span class="actor">${escapeHtml(row.actor_username)}</span>`,
      `    ${phrase(row)}`,
      `    <span class="time">${timeSinceHtml(row.datetime_created, now)}</span>`,
      '  </div>',
      '</li>',
    ].join('\n');
  });
  return `<ul>\n${items.join('\n')}\n</ul>\n`;
}
