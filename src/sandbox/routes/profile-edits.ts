/**
 * Profile edits (WIRE.md §12.5) under `{site}/site-api/users/all/<username>/`: `GET` (no login)
 * answers the featured project in the live shape (§12.7: `{id, user, thumbnail_url,
 * featured_project, featured_project_label_id, featured_project_label_name,
 * featured_project_data}`); `PUT` (the user themself) changes `bio`, `status` or
 * `featured_project` with `featured_project_label` (or `featured_project_label_id`), and takes the
 * whole object as the browser sends it back (its read-only keys are ignored). Content the site
 * refuses (too long, inappropriate, a project not theirs or not shared) is HTTP 200 with
 * `errors`, and nothing changes.
 */
import type { SandboxContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { isObject, json, parseJsonBody, readBody } from '../http-utils.js';
import type { Router } from '../router.js';
import { writer } from '../rules/auth.js';
import { isInappropriate } from '../rules/moderation.js';
import type { UserRow } from '../state/store.js';
import { assertSelf } from './social.js';

/** The longest "About me" and "What I'm working on". */
export const MAX_PROFILE_TEXT = 200;
const BODY_LIMIT = 16 * 1024;
/** The label codes and what the profile shows for each. */
const LABELS = new Map<string, string>([
  ['', 'Featured Project'],
  ['0', 'Featured Tutorial'],
  ['1', 'Work In Progress'],
  ['2', 'Remix This!'],
  ['3', 'My Favorite Things'],
  ['4', 'Why I Scratch'],
]);

export function profileEditRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions, links } = ctx;
  const extras = store.profileExtras;

  const details = (user: UserRow, errors?: string[]) => {
    const featured = extras.featured.get(user.id) ?? { projectId: null, label: '' };
    const project =
      featured.projectId === null
        ? store.sharedProjectsOf(user.id)[0]
        : store.projects.get(featured.projectId);
    return {
      featured_project_label_name: LABELS.get(featured.label) ?? 'Featured Project',
      featured_project_data:
        project && project.shared !== null
          ? {
              creator: user.username,
              thumbnail_url: links.protocolRelative(links.projectImage(project.id, '282x218')),
              // A number, as in the captured answer (test/fixtures/captured/site-api-user.json).
              id: project.id,
              datetime_modified: project.modified.replace(/(\.\d+)?Z$/, ''),
              title: project.title,
            }
          : null,
      featured_project: featured.projectId,
      thumbnail_url: links.protocolRelative(links.userImage(user.id, '90x90')),
      user: { username: user.username, pk: user.id },
      featured_project_label_id: featured.label === '' ? null : Number(featured.label),
      id: user.id,
      ...(errors ? { errors } : {}),
    };
  };

  router.get('/site-api/users/all/:username', (req) => {
    const user = store.userByName(req.params.username ?? '');
    if (!user) throw notFound();
    return json(details(user));
  });

  router.put('/site-api/users/all/:username', async (req) => {
    const session = writer(req, sessions, 'if-present');
    assertSelf(session, req.params.username);
    const user = store.users.get(session.userId)!;
    const body = parseJsonBody(await readBody(req.raw, BODY_LIMIT));
    if (!isObject(body)) throw badRequest('expected a JSON object');
    const current = extras.featured.get(user.id) ?? { projectId: null, label: '' };
    // Every field is checked first: a refused edit changes nothing.
    const errors: string[] = [];
    const texts: Partial<Pick<UserRow, 'bio' | 'status'>> = {};
    let projectId: number | null | undefined;
    for (const [key, value] of Object.entries(body)) {
      if (key === 'bio' || key === 'status') {
        if (typeof value !== 'string') errors.push(`${key}: This field must be text.`);
        else if (value.length > MAX_PROFILE_TEXT)
          errors.push(`${key}: Ensure this value has at most ${MAX_PROFILE_TEXT} characters.`);
        else if (isInappropriate(value)) errors.push(`${key}: inappropriate-generic`);
        else texts[key] = value;
      } else if (key === 'featured_project') {
        const project = typeof value === 'number' ? store.projects.get(value) : undefined;
        if (value === null || value === current.projectId) projectId = current.projectId;
        else if (!project || project.ownerId !== user.id || project.shared === null) {
          errors.push('featured_project: Only your own shared projects can be featured.');
        } else projectId = project.id;
      } else if (
        !READ_ONLY.has(key) &&
        key !== 'featured_project_label' &&
        key !== 'featured_project_label_id'
      ) {
        throw badRequest(
          `unknown field ${JSON.stringify(key)} (bio, status, featured_project, featured_project_label)`,
        );
      }
    }
    const label = labelOf(body);
    if (label === null) errors.push('featured_project_label: Unknown label.');
    else if (label !== undefined && body.featured_project === undefined)
      errors.push('featured_project_label: Needs featured_project.');
    if (errors.length > 0) return json(details(user, errors));
    Object.assign(user, texts);
    if (projectId !== undefined || label !== undefined) {
      extras.featured.set(user.id, {
        projectId: projectId === undefined ? current.projectId : projectId,
        label: label ?? current.label,
      });
    }
    return json(details(user));
  });
}

/** Keys of the read answer that a PUT of the whole object carries back; they change nothing. */
const READ_ONLY = new Set([
  'id',
  'user',
  'thumbnail_url',
  'featured_project_label_name',
  'featured_project_data',
]);

/**
 * The label a PUT asks for, as a code (`''`, `'0'`…`'4'`): from `featured_project_label` (a code)
 * or `featured_project_label_id` (a number or `null`, as the read answer has it); `undefined`
 * when it names none, `null` when it names one that does not exist.
 */
function labelOf(body: Record<string, unknown>): string | null | undefined {
  if (body.featured_project_label !== undefined) {
    const code = body.featured_project_label;
    return typeof code === 'string' && LABELS.has(code) ? code : null;
  }
  if (body.featured_project_label_id === undefined) return undefined;
  const id = body.featured_project_label_id;
  if (id === null) return '';
  return typeof id === 'number' && LABELS.has(String(id)) ? String(id) : null;
}
