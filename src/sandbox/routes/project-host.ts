import type { ProjectSaveAnswer } from '../../records/records.js';
import type { SandboxContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { bodyText, bytes, isObject, json, parseId, parseJsonBody, readBody } from '../http-utils.js';
import type { Router } from '../router.js';
import { writer } from '../rules/auth.js';

/** The largest project JSON the sandbox takes (the real limit is about 5 MB). */
export const PROJECT_BODY_LIMIT = 5 * 1024 * 1024;

/** Project bodies under `/projects` (WIRE.md §4). */
export function projectHostRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions, projectTokens } = ctx;

  router.get('/projects/:id', (req) => {
    const id = parseId(req.params.id);
    const row = id === null ? undefined : store.projects.get(id);
    if (!row) throw notFound();
    // The token is the only key: it comes from `GET {api}/projects/<id>` and expires within minutes.
    if (!projectTokens.verify(row.id, req.query.get('token'))) {
      throw forbidden('a valid project token is required (get one from the API: GET /api/projects/<id>)');
    }
    return bytes(row.body, 'application/json; charset=utf-8');
  });

  router.put('/projects/:id', async (req) => {
    const session = writer(req, sessions, 'if-present');
    const id = parseId(req.params.id);
    const row = id === null ? undefined : store.projects.get(id);
    if (!row || (row.shared === null && row.ownerId !== session.userId)) throw notFound();
    if (row.ownerId !== session.userId) throw forbidden('Only the owner can save this project');
    const text = bodyText(await readBody(req.raw, PROJECT_BODY_LIMIT));
    const body = parseJsonBody(text);
    if (!isObject(body) || !Array.isArray(body.targets)) {
      throw badRequest('a project body is a JSON object with a "targets" array');
    }
    if (!body.targets.every(isObject)) throw badRequest('every target must be a JSON object');
    // Kept as sent, byte for byte, as the real service stores it.
    row.body = text;
    row.modified = new Date().toISOString();
    row.lastActivity = row.modified;
    const answer: ProjectSaveAnswer = {
      status: 'ok',
      'autosave-interval': '120',
      'content-name': String(row.id),
    };
    return json(answer);
  });
}
