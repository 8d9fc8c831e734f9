/**
 * Classrooms (WIRE.md §12.2): the API's class records (`{api}/classrooms/<id>`,
 * `{api}/classtoken/<token>`), the site's class pages (HTML), the public activity fragment, and
 * the educator's side: class lists, private activity, alerts, create, edit, close, reopen and
 * class studios. Educator-only answers need an educator's session, and the class must be theirs.
 */
import type { SandboxContext } from '../context.js';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../errors.js';
import { isObject, json, parseJsonBody, readBody } from '../http-utils.js';
import type { Incoming, Router } from '../router.js';
import { reader, writer } from '../rules/auth.js';
import { isInappropriate } from '../rules/moderation.js';
import { type ClassroomRow, MAX_CLASSES_PER_EDUCATOR } from '../state/classrooms.js';
import type { Session } from '../state/sessions.js';
import type { StudioRow } from '../state/store.js';
import {
  classActivityHtml,
  classPageHtml,
  PUBLIC_ACTIVITY_TYPES,
  studentsPageHtml,
  studiosPageHtml,
} from '../views/classroom-html.js';
import { html, parsePageNumber, sitePage } from './page-number.js';

/** Rows a page of the students and studios pages, and of the educator's JSON lists. */
export const CLASS_PAGE_SIZE = 20;
/** The longest class title, and the longest description or "working on". */
export const MAX_CLASS_TITLE = 100;
export const MAX_CLASS_TEXT = 5_000;
/** The most studios one class may have (the sandbox's rule). */
export const MAX_CLASS_STUDIOS = 100;
/** The most items of the public activity one request may ask for. */
const MAX_PUBLIC_ACTIVITY = 100;
const BODY_LIMIT = 64 * 1024;
const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** The real site's page for a class that does not exist. */
const WHOOPS =
  "<!DOCTYPE html>\n<html><head><title>Scratch</title></head><body><h1>Whoops! Our server is Scratch'ing its head</h1></body></html>\n";

export function classroomRoutes(router: Router, ctx: SandboxContext): void {
  const { store, views, sessions } = ctx;
  const classes = store.classrooms;

  const classOf = (idText: string | undefined): ClassroomRow | undefined => {
    if (!idText || !/^\d{1,9}$/.test(idText)) return undefined;
    return classes.classes.get(Number(idText));
  };
  /** The API's record of an open class; a closed one answers `{"code":"NotFound"}`, as §12.2.1 says. */
  const record = (row: ClassroomRow | undefined) => {
    if (!row || row.ended !== null) throw notFound();
    return json({
      id: row.id,
      title: row.title,
      description: row.description,
      status: row.status,
      date_start: row.created,
      date_end: row.ended,
      images: ctx.links.classroomImages(row.id),
      educator: views.user(store.users.get(row.educatorId)!),
    });
  };
  router.get('/api/classrooms/:id', (req) => record(classOf(req.params.id)));
  router.get('/api/classtoken/:token', (req) => record(classes.byToken(req.params.token ?? '')));

  // ---- the site's pages (HTML, no login) ---------------------------------------------------------
  const pageClass = (req: Incoming): ClassroomRow => {
    const row = classOf(req.params.id);
    if (!row) throw new HttpError(404, 'NotFound', '', undefined);
    return row;
  };
  router.get('/classes/:id', (req) => {
    const row = classOf(req.params.id);
    return row ? html(classPageHtml(store, row)) : html(WHOOPS, 404);
  });
  router.get('/classes/:id/students', (req) => {
    const row = pageClass(req);
    const users = row.studentIds.map((id) => store.users.get(id)!);
    return html(studentsPageHtml(row, sitePage(users, parsePageNumber(req.query), CLASS_PAGE_SIZE)));
  });
  router.get('/classes/:id/studios', (req) => {
    const row = pageClass(req);
    const studios = row.studioIds
      .map((id) => store.studios.get(id))
      .filter((s): s is StudioRow => s !== undefined);
    return html(studiosPageHtml(row, sitePage(studios, parsePageNumber(req.query), CLASS_PAGE_SIZE)));
  });
  router.get('/site-api/classrooms/activity/public/:id', (req) => {
    const row = pageClass(req);
    const limitText = req.query.get('limit') ?? '20';
    if (!/^\d{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_PUBLIC_ACTIVITY) {
      throw badRequest(`limit must be an integer between 1 and ${MAX_PUBLIC_ACTIVITY}`);
    }
    const rows = row.activity.filter((a) => PUBLIC_ACTIVITY_TYPES.has(a.type)).slice(0, Number(limitText));
    return html(classActivityHtml(store, rows, Date.now()));
  });

  // ---- the educator's side -----------------------------------------------------------------------
  const educatorReading = (req: Incoming): Session => {
    const session = reader(req, sessions);
    if (!session) throw unauthorized();
    if (!classes.educators.has(session.userId)) throw forbidden('Only educator accounts can do this');
    return session;
  };
  const educatorWriting = (req: Incoming): Session => {
    const session = writer(req, sessions, 'if-present');
    if (!classes.educators.has(session.userId)) throw forbidden('Only educator accounts can do this');
    return session;
  };
  const ownClass = (session: Session, idText: string | undefined): ClassroomRow => {
    const row = classOf(idText);
    if (!row) throw notFound();
    if (row.educatorId !== session.userId) throw forbidden('This class belongs to another educator');
    return row;
  };
  const listRow = (row: ClassroomRow) => {
    const educator = store.users.get(row.educatorId)!;
    return {
      pk: row.id,
      model: 'educators.classroom',
      fields: {
        title: row.title,
        token: row.token,
        datetime_created: row.created,
        student_count: row.studentIds.length,
        educator_profile: { user: { username: educator.username, pk: educator.id } },
      },
    };
  };
  /** `ascsort`/`descsort` of §12.0: `title` or `student_count`; "last created" when neither. */
  const sorted = (req: Incoming, rows: ClassroomRow[]) => {
    const asc = req.query.get('ascsort') ?? '';
    const desc = req.query.get('descsort') ?? '';
    const key = asc || desc;
    if (key !== '' && key !== 'title' && key !== 'student_count') throw badRequest(`cannot sort by ${key}`);
    const value = (row: ClassroomRow) => (key === 'title' ? row.title.toLowerCase() : row.studentIds.length);
    if (key === '') return rows;
    const sign = asc ? 1 : -1;
    return [...rows].sort((a, b) => (value(a) < value(b) ? -sign : value(a) > value(b) ? sign : 0));
  };
  for (const which of ['all', 'closed'] as const) {
    router.get(`/site-api/classrooms/${which}`, (req) => {
      const session = educatorReading(req);
      const rows = classes.of(session.userId).filter((c) => (which === 'closed') === (c.ended !== null));
      return json(sitePage(sorted(req, rows), parsePageNumber(req.query), CLASS_PAGE_SIZE).map(listRow));
    });
  }

  router.get('/site-api/classrooms/activity/:id/:who', (req) => {
    const session = educatorReading(req);
    const row = ownClass(session, req.params.id);
    let rows = row.activity;
    if (req.params.who !== 'all') {
      const student = store.userByName(req.params.who ?? '');
      if (!student || !row.studentIds.includes(student.id)) throw notFound();
      rows = rows.filter((a) => a.actorId === student.id);
    }
    const out = sitePage(rows, parsePageNumber(req.query), CLASS_PAGE_SIZE).map((a) => {
      const actor = store.users.get(a.actorId)!;
      const project = a.projectId === undefined ? undefined : store.projects.get(a.projectId);
      const studio = a.studioId === undefined ? undefined : store.studios.get(a.studioId);
      return {
        type: a.type,
        datetime_created: a.created,
        actor: { username: actor.username, pk: actor.id },
        actor_username: actor.username,
        ...(project ? { project: project.id, project_title: project.title } : {}),
        ...(studio ? { gallery: studio.id, gallery_title: studio.title } : {}),
        ...(a.followedId === undefined
          ? {}
          : { followed_username: store.users.get(a.followedId)?.username ?? null }),
      };
    });
    return json(out);
  });

  const alerts = (req: Incoming, classId?: string) => {
    const session = educatorReading(req);
    const only = classId === undefined ? undefined : ownClass(session, classId).id;
    const rows = classes.alerts
      .filter((a) => a.educatorId === session.userId && (only === undefined || a.classroomId === only))
      .sort((a, b) => b.created.localeCompare(a.created));
    const userOf = (id: number) => {
      const user = store.users.get(id)!;
      return {
        username: user.username,
        pk: user.id,
        thumbnail_url: ctx.links.protocolRelative(ctx.links.userImage(user.id, '32x32')),
        admin: user.scratchteam,
      };
    };
    return json(
      sitePage(rows, parsePageNumber(req.query), CLASS_PAGE_SIZE).map((a) => ({
        model: 'educators.educatoralert',
        pk: a.pk,
        fields: {
          educator_datetime_read: a.read,
          admin_action: {
            datetime_created: a.created,
            type: a.type,
            object_id: a.objectId,
            target_user: userOf(a.targetUserId),
            actor: { username: 'ScratchCat', pk: 1, thumbnail_url: '', admin: true },
            extra_data: JSON.stringify(a.extra),
          },
        },
      })),
    );
  };
  router.get('/site-api/classrooms/alerts', (req) => alerts(req));
  router.get('/site-api/classrooms/alerts/:id', (req) => alerts(req, req.params.id));

  /** A text field of a class write: a string within its limit, and nothing the filter refuses. */
  const text = (value: unknown, name: string, max: number, required: boolean): string => {
    if (typeof value !== 'string') throw badRequest(`${name} must be a string`);
    if (required && value.trim() === '') throw badRequest(`${name} is required`);
    if (value.length > max) throw badRequest(`${name} must be at most ${max} characters long`);
    if (isInappropriate(value)) throw badRequest(`${name} is inappropriate`);
    return value;
  };
  const jsonObject = async (req: Incoming): Promise<Record<string, unknown>> => {
    const body = parseJsonBody(await readBody(req.raw, BODY_LIMIT));
    if (!isObject(body)) throw badRequest('expected a JSON object');
    return body;
  };

  router.post('/classes/create_classroom', async (req) => {
    const session = educatorWriting(req);
    const body = await jsonObject(req);
    const title = text(body.title, 'title', MAX_CLASS_TITLE, true);
    const description =
      body.description === undefined ? '' : text(body.description, 'description', MAX_CLASS_TEXT, false);
    const open = classes.of(session.userId).filter((c) => c.ended === null);
    if (open.length >= MAX_CLASSES_PER_EDUCATOR) {
      throw forbidden(`An educator may have at most ${MAX_CLASSES_PER_EDUCATOR} open classes`);
    }
    const row = classes.add({
      title,
      description,
      status: '',
      educatorId: session.userId,
      token: randomToken(),
      created: new Date().toISOString(),
      ended: null,
      studentIds: [],
      studioIds: [],
      activity: [],
    });
    // The live answer: a list of one `{success, msg, id, title}` (WIRE.md §12.7).
    return json([{ success: true, msg: '', id: row.id, title: row.title }]);
  });

  /** The fields `PUT site-api/classrooms/all/<id>/` takes, and the row field each sets. */
  const EDITS = new Map<string, { field: 'title' | 'description' | 'status'; max: number }>([
    ['title', { field: 'title', max: MAX_CLASS_TITLE }],
    ['description', { field: 'description', max: MAX_CLASS_TEXT }],
    ['status', { field: 'status', max: MAX_CLASS_TEXT }],
  ]);
  router.put('/site-api/classrooms/all/:id', async (req) => {
    const session = educatorWriting(req);
    const row = ownClass(session, req.params.id);
    const body = await jsonObject(req);
    // Every field is checked before any changes: a write never half-happens.
    const changes: Partial<Pick<ClassroomRow, 'title' | 'description' | 'status' | 'ended'>> = {};
    for (const [key, value] of Object.entries(body)) {
      if (key === 'visibility') {
        if (value !== 'visible' && value !== 'closed')
          throw badRequest('visibility can only be "visible" (reopen) or "closed" (close)');
        changes.ended = value === 'visible' ? null : (row.ended ?? new Date().toISOString());
        continue;
      }
      const edit = EDITS.get(key);
      if (!edit)
        throw badRequest(`unknown field ${JSON.stringify(key)} (title, description, status, visibility)`);
      changes[edit.field] = text(value, key, edit.max, key === 'title');
    }
    if (Object.keys(changes).length === 0) throw badRequest('nothing to change');
    Object.assign(row, changes);
    // The live answer is the whole record: token, counts, educator (WIRE.md §12.7).
    const educator = store.users.get(row.educatorId)!;
    return json({
      id: row.id,
      title: row.title,
      description: row.description,
      status: row.status,
      datetime_created: row.created,
      token: row.token,
      gallery_count: row.studioIds.length,
      student_count: row.studentIds.length,
      unread_alert_count: classes.alerts.filter((a) => a.classroomId === row.id && a.read === null).length,
      thumbnail_url: ctx.links.protocolRelative(
        `${ctx.links.base}/get_image/classroom/${row.id}_250x188.png`,
      ),
      educator: { username: educator.username, pk: educator.id },
      visibility: row.ended === null ? 'visible' : 'closed',
    });
  });

  router.post('/site-api/classrooms/close_classroom/:id', (req) => {
    const session = educatorWriting(req);
    const row = ownClass(session, req.params.id);
    row.ended ??= new Date().toISOString();
    return json({ id: row.id, visibility: 'closed', date_end: row.ended });
  });

  router.post('/classes/create_classroom_gallery', async (req) => {
    const session = educatorWriting(req);
    const body = await jsonObject(req);
    const idText = typeof body.classroom_id === 'number' ? String(body.classroom_id) : body.classroom_id;
    if (typeof idText !== 'string') throw badRequest('classroom_id is required');
    const row = ownClass(session, idText);
    if (body.classroom_token !== row.token) throw forbidden('classroom_token does not match the class');
    if (row.ended !== null) throw forbidden('This class has ended');
    if (row.studioIds.length >= MAX_CLASS_STUDIOS) {
      throw forbidden(`A class may have at most ${MAX_CLASS_STUDIOS} studios`);
    }
    const title = text(body.title, 'title', 52, true);
    const description =
      body.description === undefined ? '' : text(body.description, 'description', MAX_CLASS_TEXT, false);
    const now = new Date().toISOString();
    const studio: StudioRow = {
      id: Math.max(0, ...store.studios.keys()) + 1,
      title,
      hostId: session.userId,
      description,
      created: now,
      modified: now,
      openToAll: false,
      commentsAllowed: true,
      followers: 0,
      managers: [session.userId],
      curators: [...row.studentIds],
      projects: [],
      language: 'en',
      tags: [],
      recentActivity: 0,
      lastActivity: now,
    };
    store.studios.set(studio.id, studio);
    row.studioIds.push(studio.id);
    // The live answer: a list of one `{success, msg, gallery_id, gallery_title}` (WIRE.md §12.7).
    return json([
      { success: true, msg: 'The studio was created.', gallery_id: studio.id, gallery_title: studio.title },
    ]);
  });
}

function randomToken(): string {
  let out = '';
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  for (const byte of bytes) out += TOKEN_ALPHABET[byte % TOKEN_ALPHABET.length];
  return out;
}
