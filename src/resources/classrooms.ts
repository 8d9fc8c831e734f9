/**
 * Classrooms (WIRE.md §12.2): reads that need no login (a class, its students, studios and public
 * activity) and the educator's side (their classes, private activity, alerts, and the class
 * writes). Every request goes through the session's request budget; a refusal is an
 * {@link ApiError} with the site's reason.
 */
import { ApiError } from '../errors.js';
import { readHtmlAnswer } from '../http/html-answer.js';
import type { HttpAnswer } from '../http/http.js';
import type { UserActivity } from '../records/activity-records.js';
import { parseClassPage, parseClassStudents, parseClassStudios } from '../records/classroom-html.js';
import type {
  Classroom,
  ClassroomActivityRow,
  ClassroomListRow,
  ClassroomStudent,
  ClassroomStudio,
  EducatorAlert,
} from '../records/classroom-records.js';
import type { User } from '../records/records.js';
import { parseUserActivity } from '../records/user-activity-html.js';
import {
  assertBoolean,
  assertInteger,
  assertNonEmptyString,
  assertObject,
  assertString,
  assertUsername,
  toId,
} from '../records/validate.js';
import { hideSecrets } from '../redact.js';
import type { RecordList } from '../rows/record-list.js';
import { Resource } from './resource.js';
import { readSitePages, type SitePageOptions } from './site-pages.js';

/** The longest class title the client sends, and the longest about or "working on" text. */
export const MAX_CLASS_TITLE = 100;
export const MAX_CLASS_TEXT = 5_000;

/** A class as the API answers it (before it is given `closed`). */
type ApiClassroom = Omit<Classroom, 'closed' | 'educator'> & { educator: User };

/** Options of `classrooms.mine`. */
export interface MyClassesOptions extends SitePageOptions {
  /** The ended classes instead of the open ones. */
  closed?: boolean;
  /** Order: `created` (newest first, the default), `title` (A-Z), `title-desc` (Z-A), `students` (most first). */
  sort?: 'created' | 'title' | 'title-desc' | 'students';
}

/** Options of `classrooms.privateActivity`. */
export interface ClassActivityOptions extends SitePageOptions {
  /** One student's items only. */
  student?: string;
}

/** Options of `classrooms.create`. */
export interface ClassCreateOptions {
  title: string;
  description?: string;
}

const SORTS = new Map<string, { ascsort: string; descsort: string }>([
  ['created', { ascsort: '', descsort: '' }],
  ['title', { ascsort: 'title', descsort: '' }],
  ['title-desc', { ascsort: '', descsort: 'title' }],
  ['students', { ascsort: '', descsort: 'student_count' }],
]);

/** Classrooms: `{api}/classrooms/<id>`, the class pages, and the educator's `site-api/classrooms`. */
export class Classrooms extends Resource {
  /**
   * A class by id. An open class comes from the API; the API refuses a closed one, so it is read
   * from its page then (no dates, the educator by name only, `closed: true`).
   * @throws ApiError 404 when there is no such class
   */
  async get(id: number | string): Promise<Classroom> {
    const classId = toId(id, 'classroom id');
    try {
      return fromApi(await this.session.apiGet<ApiClassroom>(`/classrooms/${classId}`));
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      const answer = await this.#page(`/classes/${classId}/`);
      return readHtmlAnswer(this.session, answer, 'GET', (html) => parseClassPage(html, classId));
    }
  }

  /** The class a sign-up token belongs to (tokens are letters and digits). */
  async byToken(token: string): Promise<Classroom> {
    assertNonEmptyString(token, 'token');
    if (!/^[A-Za-z0-9]{1,64}$/.test(token))
      throw new RangeError('token must be letters and digits (at most 64)');
    // The token is in the URL: an error about this request must not show it.
    this.session.http.rememberSecret(token);
    return fromApi(await this.session.apiGet<ApiClassroom>(`/classtoken/${token}`));
  }

  /** Every student of the class, from its students pages (no login). */
  async students(id: number | string, options: SitePageOptions = {}): Promise<RecordList<ClassroomStudent>> {
    const classId = toId(id, 'classroom id');
    return this.#htmlPages(`/classes/${classId}/students/`, parseClassStudents, options);
  }

  /** Every class studio, from the class's studios pages (no login). */
  async studios(id: number | string, options: SitePageOptions = {}): Promise<RecordList<ClassroomStudio>> {
    const classId = toId(id, 'classroom id');
    return this.#htmlPages(`/classes/${classId}/studios/`, parseClassStudios, options);
  }

  /**
   * What the class's students did lately (no login): the public activity, served as HTML and read
   * into the same rows as a user's activity; the dates are estimates from the relative times.
   */
  async activity(
    id: number | string,
    options: { limit?: number; signal?: AbortSignal } = {},
  ): Promise<UserActivity[]> {
    const classId = toId(id, 'classroom id');
    assertObject(options, 'options');
    const limit = options.limit === undefined ? 20 : assertInteger(options.limit, 'limit', 1, 100);
    const answer = await this.#page(
      `/site-api/classrooms/activity/public/${classId}/`,
      { limit },
      options.signal,
    );
    return readHtmlAnswer(this.session, answer, 'GET', (html) => parseUserActivity(html)).slice(0, limit);
  }

  // ---- the educator's side (an educator's login) -----------------------------------------------

  /** The educator's classes, open (or with `closed: true`, ended), sorted as the site sorts them. */
  async mine(options: MyClassesOptions = {}): Promise<RecordList<ClassroomListRow>> {
    assertObject(options, 'options');
    const closed = options.closed === undefined ? false : assertBoolean(options.closed, 'closed');
    const sort = SORTS.get(options.sort ?? 'created');
    if (!sort) throw new RangeError(`sort must be one of ${[...SORTS.keys()].join(', ')}`);
    this.session.requireAuth('classrooms.mine');
    const url = `${this.session.hosts.site}/site-api/classrooms/${closed ? 'closed' : 'all'}/`;
    // The sign-up token lets anyone join the class: a secret of the session, hidden when printed.
    return readSitePages(async (page, signal) => {
      const rows = await this.session.authedJson<ClassroomListRow[]>(url, {
        query: { page, ...sort },
        signal,
      });
      for (const row of Array.isArray(rows) ? rows : []) {
        if (typeof row?.fields?.token === 'string') this.session.http.rememberSecret(row.fields.token);
        hideSecrets(row);
      }
      return rows;
    }, options);
  }

  /** Everything the class's students did (educator only), or one student's with `student`. */
  async privateActivity(
    id: number | string,
    options: ClassActivityOptions = {},
  ): Promise<RecordList<ClassroomActivityRow>> {
    const classId = toId(id, 'classroom id');
    assertObject(options, 'options');
    if (options.student !== undefined) assertUsername(options.student, 'student');
    this.session.requireAuth('classrooms.privateActivity');
    const who = options.student === undefined ? 'all' : encodeURIComponent(options.student);
    const url = `${this.session.hosts.site}/site-api/classrooms/activity/${classId}/${who}/`;
    return readSitePages(
      (page, signal) => this.session.authedJson<ClassroomActivityRow[]>(url, { query: { page }, signal }),
      options,
    );
  }

  /** The educator's alerts about students, of every class or of one (educator only). */
  async alerts(
    options: SitePageOptions & { classroom?: number | string } = {},
  ): Promise<RecordList<EducatorAlert>> {
    assertObject(options, 'options');
    const classId = options.classroom === undefined ? undefined : toId(options.classroom, 'classroom');
    this.session.requireAuth('classrooms.alerts');
    const url = `${this.session.hosts.site}/site-api/classrooms/alerts/${classId === undefined ? '' : `${classId}/`}`;
    return readSitePages(
      (page, signal) => this.session.authedJson<EducatorAlert[]>(url, { query: { page }, signal }),
      options,
    );
  }

  /** Creates a class (educator only); answers it as the API reads it. */
  async create(options: ClassCreateOptions): Promise<Classroom> {
    assertObject(options, 'options');
    const title = classText(options.title, 'title', MAX_CLASS_TITLE, true);
    const description =
      options.description === undefined
        ? ''
        : classText(options.description, 'description', MAX_CLASS_TEXT, false);
    this.session.requireAuth('classrooms.create');
    const url = `${this.session.hosts.site}/classes/create_classroom/`;
    const answer = await this.session.authedJson<unknown>(url, {
      method: 'POST',
      json: { title, description },
    });
    // The site answers a list of one `{success, msg, id, title}` (WIRE.md §12.7).
    return this.get(createdId(answer, 'id', { url, what: 'class' }));
  }

  /** Sets the class's title (educator only). */
  async setTitle(id: number | string, title: string): Promise<void> {
    await this.#edit(id, { title: classText(title, 'title', MAX_CLASS_TITLE, true) });
  }

  /** Sets "About this class" (educator only). */
  async setDescription(id: number | string, description: string): Promise<void> {
    await this.#edit(id, { description: classText(description, 'description', MAX_CLASS_TEXT, false) });
  }

  /** Sets "What we're working on" (educator only). */
  async setWorkingOn(id: number | string, text: string): Promise<void> {
    await this.#edit(id, { status: classText(text, 'text', MAX_CLASS_TEXT, false) });
  }

  /** Opens an ended class again (educator only). */
  async reopen(id: number | string): Promise<void> {
    await this.#edit(id, { visibility: 'visible' });
  }

  /** Ends the class (educator only): it leaves the API and the open list; its page stays. */
  async close(id: number | string): Promise<void> {
    const classId = toId(id, 'classroom id');
    this.session.requireAuth('classrooms.close');
    await this.session.authedJson(
      `${this.session.hosts.site}/site-api/classrooms/close_classroom/${classId}/`,
      {
        method: 'POST',
      },
    );
  }

  /** Adds a class studio (educator only; the class's token is looked up). Answers the new studio's id. */
  async addStudio(id: number | string, options: { title: string; description?: string }): Promise<number> {
    const classId = toId(id, 'classroom id');
    assertObject(options, 'options');
    const title = classText(options.title, 'title', 52, true);
    const description =
      options.description === undefined
        ? ''
        : classText(options.description, 'description', MAX_CLASS_TEXT, false);
    this.session.requireAuth('classrooms.addStudio');
    const token = await this.#token(classId);
    const url = `${this.session.hosts.site}/classes/create_classroom_gallery/`;
    const answer = await this.session.authedJson<unknown>(url, {
      method: 'POST',
      json: { classroom_id: String(classId), classroom_token: token, title, description },
    });
    // The site answers a list of one `{success, msg, gallery_id, gallery_title}` (WIRE.md §12.7).
    return createdId(answer, 'gallery_id', { url, what: 'studio' });
  }

  /** The class's token, from the educator's lists (open first, then ended). */
  async #token(classId: number): Promise<string> {
    for (const closed of [false, true]) {
      const row = (await this.mine({ closed, maxPages: 100 })).find((c) => c.pk === classId);
      if (row) return row.fields.token;
    }
    throw new ApiError({
      status: 404,
      url: `${this.session.hosts.site}/site-api/classrooms/all/`,
      method: 'GET',
      reason: `class ${classId} is not among your classes`,
    });
  }

  async #edit(id: number | string, body: Record<string, string>): Promise<void> {
    const classId = toId(id, 'classroom id');
    this.session.requireAuth('classrooms edit');
    await this.session.authedJson(`${this.session.hosts.site}/site-api/classrooms/all/${classId}/`, {
      method: 'PUT',
      json: body,
    });
  }

  /** A page of the site (HTML), read through the budget. */
  #page(path: string, query?: Record<string, number>, signal?: AbortSignal): Promise<HttpAnswer> {
    return this.session.http.request(`${this.session.hosts.site}${path}`, { query, signal });
  }

  #htmlPages<T>(
    path: string,
    parse: (html: string) => T[],
    options: SitePageOptions,
  ): Promise<RecordList<T>> {
    return readSitePages(async (page, signal) => {
      const answer = await this.#page(path, { page }, signal);
      return readHtmlAnswer(this.session, answer, 'GET', parse);
    }, options);
  }
}

/** A class's text field: a string, within `max`, not blank when `required`. */
function classText(value: unknown, name: string, max: number, required: boolean): string {
  if (required) assertNonEmptyString(value, name);
  else assertString(value, name);
  if (value.length > max)
    throw new RangeError(`${name} must be at most ${max} characters long, got ${value.length}`);
  return value;
}

/**
 * The new object's id in a creation's answer, a list of one `{success, msg, <key>, …}`; a refusal
 * (`success: false`) or any other answer is an {@link ApiError} naming the site's message.
 */
function createdId(answer: unknown, key: 'id' | 'gallery_id', at: { url: string; what: string }): number {
  const first: unknown = Array.isArray(answer) && answer.length === 1 ? answer[0] : undefined;
  const row = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
  const id = row[key];
  if (row.success === true && typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return id;
  const msg = typeof row.msg === 'string' && row.msg !== '' ? `: ${row.msg}` : '';
  throw new ApiError({
    status: 200,
    url: at.url,
    method: 'POST',
    body: answer,
    reason:
      row.success === false
        ? `the site refused to create the ${at.what}${msg}`
        : `the answer names no new ${at.what} id (${key})`,
  });
}

function fromApi(record: ApiClassroom): Classroom {
  return { ...record, closed: Boolean(record.date_end) };
}
