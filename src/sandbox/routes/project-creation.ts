/**
 * Creating projects and their thumbnails (WIRE.md §12.4): `POST {projects}/?is_remix=0|1
 * &original_id=<id>&title=<t>` with the body (a new unshared project of the caller's; a remix
 * names its parent and root) and `POST {site}/internalapi/project/thumbnail/<id>/set/` with PNG or
 * JPEG bytes (owner only), which the project's image URLs then serve.
 */
import type { ProjectSaveAnswer } from '../../records/records.js';
import type { SandboxContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { bodyText, isObject, json, parseId, parseJsonBody, readBody } from '../http-utils.js';
import type { Router } from '../router.js';
import { writer } from '../rules/auth.js';
import { canSeeProject } from '../rules/project-visibility.js';
import { MAX_THUMBNAIL_BYTES } from '../state/profile-extras.js';
import type { ProjectRow } from '../state/store.js';
import { PROJECT_BODY_LIMIT } from './project-host.js';

/** The most projects one user may create in the sandbox's lifetime (a runaway bot stops here). */
export const MAX_CREATED_PER_USER = 1_000;
const MAX_TITLE = 100;

export function projectCreationRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions } = ctx;
  const created = new Map<number, number>();

  router.post('/projects', async (req) => {
    const session = writer(req, sessions, 'if-present');
    const remixFlag = req.query.get('is_remix') ?? '0';
    if (remixFlag !== '0' && remixFlag !== '1') throw badRequest('is_remix must be 0 or 1');
    let parent: ProjectRow | undefined;
    if (remixFlag === '1') {
      const parentId = parseId(req.query.get('original_id') ?? undefined);
      parent = parentId === null ? undefined : store.projects.get(parentId);
      if (!parent || !canSeeProject(parent, session.userId)) throw notFound();
    }
    const title = req.query.get('title') ?? (parent ? `${parent.title} remix` : 'Untitled');
    if (title.trim() === '' || title.length > MAX_TITLE)
      throw badRequest(`title must be 1 to ${MAX_TITLE} characters long`);
    const count = created.get(session.userId) ?? 0;
    if (count >= MAX_CREATED_PER_USER)
      throw forbidden(`at most ${MAX_CREATED_PER_USER} new projects per user`);
    const text = bodyText(await readBody(req.raw, PROJECT_BODY_LIMIT));
    const body = parseJsonBody(text);
    if (!isObject(body) || !Array.isArray(body.targets) || !body.targets.every(isObject)) {
      throw badRequest('a project body is a JSON object with a "targets" array of objects');
    }
    const now = new Date().toISOString();
    const row: ProjectRow = {
      id: Math.max(0, ...store.projects.keys()) + 1,
      ownerId: session.userId,
      title,
      description: '',
      instructions: '',
      created: now,
      modified: now,
      shared: null,
      commentsAllowed: true,
      views: 0,
      loves: 0,
      favorites: 0,
      parent: parent?.id ?? null,
      root: parent ? (parent.root ?? parent.id) : null,
      language: 'en',
      tags: [],
      recentLoves: 0,
      lastActivity: now,
      body: text,
    };
    store.addProject(row);
    created.set(session.userId, count + 1);
    const answer: ProjectSaveAnswer = {
      status: 'ok',
      'content-name': String(row.id),
      'content-title': Buffer.from(row.title).toString('base64'),
      'autosave-interval': '120',
    };
    return json(answer);
  });

  router.post('/internalapi/project/thumbnail/:id/set', async (req) => {
    const session = writer(req, sessions, 'if-present');
    const id = parseId(req.params.id);
    const row = id === null ? undefined : store.projects.get(id);
    if (!row || !canSeeProject(row, session.userId)) throw notFound();
    if (row.ownerId !== session.userId) throw forbidden('Only the owner can change the thumbnail');
    const image = await readBody(req.raw, MAX_THUMBNAIL_BYTES);
    const png = image.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const jpeg = image.length >= 3 && image[0] === 0xff && image[1] === 0xd8 && image[2] === 0xff;
    // Animated thumbnails are GIFs, which the site takes (WIRE.md §12.7).
    const gif = ['GIF87a', 'GIF89a'].includes(image.subarray(0, 6).toString('latin1'));
    if (!png && !jpeg && !gif) throw badRequest('the thumbnail must be a PNG, a JPEG or a GIF');
    store.profileExtras.thumbnails.set(row.id, new Uint8Array(image));
    return json({ status: 'ok', 'content-length': image.length, 'content-name': String(row.id) });
  });
}
