/**
 * The classroom pages of the site (WIRE.md §12.2.1-12.2.3) as the sandbox serves them: the class
 * page (`/classes/<id>/`, also what a closed class has), its students and studios pages, and the
 * public activity fragment. The markup holds what §12 says the real pages hold: `<title>`,
 * `p.overview` twice, the educator in `Scratch.INIT_DATA.PROFILE`, "Students (N)" and
 * "Class Studios (N)", `ul.scroll-content` lists, `span.title` links on the studios page.
 */
import { escapeHtml } from '../../records/html.js';
import type { ClassActivityRow, ClassroomRow } from '../state/classrooms.js';
import type { Store, StudioRow, UserRow } from '../state/store.js';
import { timeSinceHtml } from './time-since-html.js';

const userLink = (user: UserRow) =>
  `<a href="/users/${escapeHtml(user.username)}/">${escapeHtml(user.username)}</a>`;
const studioLink = (studio: StudioRow) => `<a href="/studios/${studio.id}/">${escapeHtml(studio.title)}</a>`;

function page(title: string, body: string, script = ''): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${escapeHtml(title)} on Scratch</title>${script}</head>`,
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The class page: title, about, working on, educator, and the first students and studios. */
export function classPageHtml(store: Store, row: ClassroomRow): string {
  const educator = store.users.get(row.educatorId)!;
  const students = row.studentIds.map((id) => store.users.get(id)!);
  const studios = row.studioIds
    .map((id) => store.studios.get(id))
    .filter((s): s is StudioRow => s !== undefined);
  // The profile model is JavaScript, written as the real page writes it; the name is escaped for
  // a JS string inside a <script> (no quote, backslash or "<" gets through).
  const jsName = educator.username.replace(/[^A-Za-z0-9_-]/g, '');
  const script = `<script>\nScratch.INIT_DATA.PROFILE = {\n  model: {\n    id: '${jsName}',\n    userId: ${educator.id},\n  },\n};\n</script>`;
  const body = [
    `<div id="classroom" data-classroom-id="${row.id}">`,
    `  <h2>${escapeHtml(row.title)}</h2>`,
    row.ended ? '  <p class="closed">This class has ended.</p>' : '',
    `  <p class="overview">${escapeHtml(row.description)}</p>`,
    `  <p class="overview">${escapeHtml(row.status)}</p>`,
    `  <div class="box"><h4>Students (${students.length})</h4>`,
    '  <ul class="scroll-content">',
    ...students.slice(0, 20).map((u) => `    <li class="user">${userLink(u)}</li>`),
    '  </ul></div>',
    `  <div class="box"><h4>Class Studios (${studios.length})</h4>`,
    '  <ul class="scroll-content">',
    ...studios.slice(0, 20).map((s) => `    <li class="gallery">${studioLink(s)}</li>`),
    '  </ul></div>',
    '</div>',
  ];
  return page(row.title, body.filter((line) => line !== '').join('\n'), script);
}

/** One page of the students page: avatar and name links, indented as the real page is. */
export function studentsPageHtml(row: ClassroomRow, students: readonly UserRow[]): string {
  const items = students.map((u) =>
    [
      '    <li class="user">',
      '      <div class="avatar">',
      `        <a href="/users/${escapeHtml(u.username)}/"><img src="/get_image/user/${u.id}_60x60.png" alt=""></a>`,
      '      </div>',
      `      <span class="title">${userLink(u)}</span>`,
      '    </li>',
    ].join('\n'),
  );
  return page(`${row.title}: students`, `<ul class="media-grid">\n${items.join('\n')}\n</ul>`);
}

/** One page of the studios page: `span.title` with the studio's link. */
export function studiosPageHtml(row: ClassroomRow, studios: readonly StudioRow[]): string {
  const items = studios.map((s) =>
    ['  <li class="gallery">', `<span class="title">\n    ${studioLink(s)}\n</span>`, '  </li>'].join('\n'),
  );
  return page(`${row.title}: studios`, `<ul class="media-grid">\n${items.join('\n')}\n</ul>`);
}

/** What the public activity shows: loves, favorites, shares, follows, additions to studios. */
export const PUBLIC_ACTIVITY_TYPES: ReadonlySet<number> = new Set([0, 1, 2, 3, 7, 10]);

/** The public activity fragment: `<li><div><span>actor</span> verb <a>target</a> <span>time</span></div></li>`. */
export function classActivityHtml(store: Store, rows: readonly ClassActivityRow[], now: number): string {
  const items = rows.map((row) => {
    const actor = store.users.get(row.actorId)!;
    const ago = timeSinceHtml(row.created, now);
    const project = row.projectId === undefined ? undefined : store.projects.get(row.projectId);
    const studio = row.studioId === undefined ? undefined : store.studios.get(row.studioId);
    const followed = row.followedId === undefined ? undefined : store.users.get(row.followedId);
    const projectLink = project ? `<a href="/projects/${project.id}/">${escapeHtml(project.title)}</a>` : '';
    const phrase =
      row.type === 0 && followed
        ? `is now following ${userLink(followed)}`
        : row.type === 1 && studio
          ? `is now following the studio ${studioLink(studio)}`
          : row.type === 2
            ? `loved ${projectLink}`
            : row.type === 3
              ? `favorited ${projectLink}`
              : row.type === 7 && studio
                ? `added ${projectLink} to ${studioLink(studio)}`
                : `shared the project ${projectLink}`;
    return `<li><div><span>${escapeHtml(actor.username)}</span> ${phrase} <span>${ago}</span></div></li>`;
  });
  return `<ul>\n${items.join('\n')}\n</ul>\n`;
}
