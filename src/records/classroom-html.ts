/**
 * The classroom pages of the site (WIRE.md §12.2.1-12.2.2), read with the HTML parser: a class's
 * page (what a closed class still has), its students page and its studios page. Links are read by
 * their path (`/users/<name>/`, `/studios/<id>/`), never by the markup's spacing.
 */
import type { Classroom, ClassroomStudent, ClassroomStudio } from './classroom-records.js';
import {
  findElement,
  findElements,
  type HtmlElement,
  parseHtml,
  textOf,
  UnreadablePageError,
} from './html.js';

/** The path segments of a link, or `[]` when its `href` is not a URL. */
function pathOf(link: HtmlElement): string[] {
  try {
    return new URL(link.attribs.href ?? '', 'https://scratch.mit.edu').pathname
      .split('/')
      .filter((s) => s !== '')
      .map((s) => decodeURIComponent(s));
  } catch {
    return [];
  }
}

/** The username a `/users/<name>/` link names, or `null`. */
function userOf(link: HtmlElement): string | null {
  const [section, name, rest] = pathOf(link);
  return section === 'users' && name !== undefined && rest === undefined ? name : null;
}

/** The studio a `/studios/<id>/` link names, or `null`. */
function studioOf(link: HtmlElement): ClassroomStudio | null {
  const [section, id, rest] = pathOf(link);
  if (section !== 'studios' || id === undefined || rest !== undefined || !/^\d{1,15}$/.test(id)) return null;
  return { id: Number(id), title: textOf(link) };
}

/** The distinct users linked from `li.user` items, in page order (avatar and name link the same user). */
export function parseClassStudents(html: string): ClassroomStudent[] {
  const document = parseHtml(html);
  const seen = new Set<string>();
  const out: ClassroomStudent[] = [];
  for (const item of findElements(document, { tag: 'li', className: 'user' })) {
    for (const link of findElements(item, { tag: 'a' })) {
      const username = userOf(link);
      if (username === null || seen.has(username.toLowerCase())) continue;
      seen.add(username.toLowerCase());
      out.push({ username });
    }
  }
  return out;
}

/** The studios of `span.title` links, in page order. */
export function parseClassStudios(html: string): ClassroomStudio[] {
  const document = parseHtml(html);
  const out: ClassroomStudio[] = [];
  const seen = new Set<number>();
  for (const span of findElements(document, { tag: 'span', className: 'title' })) {
    const link = findElement(span, { tag: 'a' });
    const studio = link ? studioOf(link) : null;
    if (studio && !seen.has(studio.id)) {
      seen.add(studio.id);
      out.push(studio);
    }
  }
  return out;
}

/** The number in "Students (12)" / "Class Studios (1,234)" of the page's text, or `undefined`. */
function countAfter(text: string, label: string): number | undefined {
  const at = text.indexOf(`${label} (`);
  if (at < 0) return undefined;
  const end = text.indexOf(')', at);
  const digits = text.slice(at + label.length + 2, end).replace(/,/g, '');
  return /^\d{1,9}$/.test(digits) ? Number(digits) : undefined;
}

/** The educator's name in the page's `Scratch.INIT_DATA.PROFILE = { model: { id: '<name>', ...` script. */
function educatorOf(document: ReturnType<typeof parseHtml>): string | null {
  const marker = 'Scratch.INIT_DATA.PROFILE';
  for (const script of findElements(document, { tag: 'script' })) {
    const code = textOf(script);
    const at = code.indexOf(marker);
    if (at < 0) continue;
    const idAt = code.indexOf("id: '", at);
    // Stryker disable next-line EqualityOperator: equivalent, idAt is found from the marker on, so it is never 0
    if (idAt < 0) continue;
    const start = idAt + "id: '".length;
    const end = code.indexOf("'", start);
    // Stryker disable next-line EqualityOperator,StringLiteral: equivalent, an empty slice or any text with spaces fails the name's test below
    const name = end > start ? code.slice(start, end) : '';
    if (/^[A-Za-z0-9_-]{1,20}$/.test(name)) return name;
  }
  return null;
}

/**
 * A class read from its page (`{site}/classes/<id>/`): title, about, working on, educator and the
 * counts. The page gives no dates; the API refuses closed classes, so this is how they are read.
 * @throws UnreadablePageError naming what the page lacks
 */
export function parseClassPage(html: string, id: number): Classroom {
  const document = parseHtml(html);
  const titleElement = findElement(document, { tag: 'title' });
  if (!titleElement) throw new UnreadablePageError('<title> (a class page)');
  const title = textOf(titleElement).replace(/ on Scratch$/, '');
  const overviews = findElements(document, { tag: 'p', className: 'overview' });
  if (overviews.length < 2) throw new UnreadablePageError('p.overview about and status (a class page)');
  const educator = educatorOf(document);
  if (educator === null)
    throw new UnreadablePageError('educator (Scratch.INIT_DATA.PROFILE of a class page)');
  const text = textOf(document);
  const students = countAfter(text, 'Students');
  const studios = countAfter(text, 'Class Studios');
  return {
    id,
    title,
    description: textOf(overviews[0]!),
    status: textOf(overviews[1]!),
    date_start: null,
    date_end: null,
    closed: true,
    educator: { username: educator },
    ...(students === undefined ? {} : { student_count: students }),
    ...(studios === undefined ? {} : { studio_count: studios }),
  };
}
