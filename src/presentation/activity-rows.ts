/**
 * Messages and activity rows (WIRE.md §11.1-11.2) read as one sentence each: who (actor), did
 * what, on what, when. One reading serves messages, studio activity, the feed and a profile's
 * parsed activity, so the tables and charts of all four agree.
 */
import { parseHtml, textOf } from '../records/html.js';

/** One row as a table shows it. */
export interface ActivityLine {
  type: string;
  actor: string;
  /** What happened, e.g. `loved`, `commented: "nice!"`. */
  what: string;
  /** What it happened to: a title or a username; `null` when nothing. */
  on: string | null;
  /** A site-relative link of `on`, when it names something. */
  onPath: string | null;
  /** ISO date, or `null` when the row has none. */
  when: string | null;
}

type Row = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const project = (id: unknown) => (num(id) === null ? null : `/projects/${id}/`);
const studio = (id: unknown) => (num(id) === null ? null : `/studios/${id}/`);
const user = (name: unknown) => (str(name) ? `/users/${encodeURIComponent(name as string)}/` : null);

/** A message's comment fragment is HTML-escaped on the wire: shown as its text. */
function fragmentText(fragment: unknown): string {
  const text = str(fragment);
  return text === null ? '' : textOf(parseHtml(text));
}

/** Whether the row is a studio's activity row (its id is `"<type>-<n>"`). */
function isStudioRow(row: Row): boolean {
  return typeof row.id === 'string';
}

/** Reads one row of messages, studio activity, the feed or a profile's activity. */
export function describeActivity(row: Row): ActivityLine {
  const type = str(row.type) ?? '';
  const actor = str(row.actor_username) ?? '';
  const when = str(row.datetime_created);
  const line = (what: string, on: unknown = null, onPath: string | null = null): ActivityLine => ({
    type,
    actor,
    what,
    on: str(on),
    onPath: str(on) === null ? null : onPath,
    when,
  });

  // A profile's activity, parsed from HTML: the page's own verb and links.
  if (typeof row.verb === 'string' && 'target' in row) {
    const target = row.target as { name?: unknown; href?: unknown } | null;
    const second = row.secondTarget as { name?: unknown } | null;
    const on = str(target?.name);
    const onText = on !== null && str(second?.name) ? `${on} → ${second!.name}` : on;
    return line(row.verb, onText, str(target?.href));
  }

  switch (type) {
    case 'followuser':
      return line('followed', row.followed_username, user(row.followed_username));
    case 'loveproject':
      return line('loved', row.title, project(row.project_id));
    case 'favoriteproject':
      return line('favorited', row.project_title ?? row.title, project(row.project_id));
    case 'shareproject':
      return line('shared', row.title, project(row.project_id));
    case 'remixproject':
      return line(
        str(row.title) ? `remixed as "${row.title}"` : 'remixed',
        row.parent_title,
        project(row.parent_id),
      );
    case 'addcomment': {
      const kind = row.comment_type;
      const path =
        kind === 0
          ? project(row.comment_obj_id)
          : kind === 2
            ? studio(row.comment_obj_id)
            : user(row.comment_obj_title);
      const fragment = fragmentText(row.comment_fragment);
      return line(fragment ? `commented: "${fragment}"` : 'commented', row.comment_obj_title, path);
    }
    case 'curatorinvite':
      return line('invited you to curate', row.title, studio(row.gallery_id));
    case 'studioactivity':
      return line('new activity in', row.title, studio(row.gallery_id));
    case 'forumpost':
      return line(
        'posted in',
        row.topic_title,
        num(row.topic_id) === null ? null : `/discuss/topic/${row.topic_id}/`,
      );
    case 'userjoin':
      return line('joined Scratch');
    case 'followstudio':
      return line('followed studio', row.title, studio(row.gallery_id));
    case 'addprojecttostudio':
      return line('added project', row.project_title ?? row.title, project(row.project_id));
    case 'removeprojectstudio':
      return line('removed project', row.project_title, project(row.project_id));
    case 'updatestudio':
      return line('updated the studio');
    case 'becomecurator':
      return isStudioRow(row)
        ? line('became a curator')
        : line('became a curator of', row.title ?? row.gallery_title, studio(row.gallery_id));
    case 'removecuratorstudio':
      return line('removed curator', row.username, user(row.username));
    case 'becomeownerstudio':
      return isStudioRow(row) || !('gallery_id' in row)
        ? line('made manager', row.recipient_username, user(row.recipient_username))
        : line(
            `made ${str(row.recipient_username) ?? '?'} a manager of`,
            row.gallery_title,
            studio(row.gallery_id),
          );
    case 'becomehoststudio':
      return 'gallery_id' in row
        ? line(
            `made ${str(row.recipient_username) ?? '?'} host of`,
            row.gallery_title,
            studio(row.gallery_id),
          )
        : line('made host', row.recipient_username, user(row.recipient_username));
    default:
      return line(type || '?');
  }
}
