/**
 * Profile edits (WIRE.md §12.5) under `{site}/site-api/users/all/<username>/`: `GET` (no login)
 * answers the profile's texts and featured project; `PUT` (the user themself) changes `bio`,
 * `status` or `featured_project` with `featured_project_label`. Content the site refuses (too long,
 * inappropriate, a project not theirs or not shared) is HTTP 200 with `errors`, and nothing changes.
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

  const details = (user: UserRow, errors: string[] = []) => {
    const featured = extras.featured.get(user.id) ?? { projectId: null, label: '' };
    const project =
      featured.projectId === null
        ? store.sharedProjectsOf(user.id)[0]
        : store.projects.get(featured.projectId);
    return {
      username: user.username,
      id: user.id,
      bio: user.bio,
      status: user.status,
      featured_project: featured.projectId,
      featured_project_label: featured.label,
      featured_project_label_name: LABELS.get(featured.label) ?? 'Featured Project',
      featured_project_data:
        project && project.shared !== null
          ? {
              id: project.id,
              creator: user.username,
              title: project.title,
              thumbnail_url: links.protocolRelative(links.projectImage(project.id, '282x218')),
            }
          : null,
      errors,
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
    // Every field is checked first: a refused edit changes nothing.
    const errors: string[] = [];
    const texts: Partial<Pick<UserRow, 'bio' | 'status'>> = {};
    let featured: { projectId: number; label: string } | undefined;
    for (const [key, value] of Object.entries(body)) {
      if (key === 'bio' || key === 'status') {
        if (typeof value !== 'string') errors.push(`${key}: This field must be text.`);
        else if (value.length > MAX_PROFILE_TEXT)
          errors.push(`${key}: Ensure this value has at most ${MAX_PROFILE_TEXT} characters.`);
        else if (isInappropriate(value)) errors.push(`${key}: inappropriate-generic`);
        else texts[key] = value;
      } else if (key === 'featured_project') {
        const project = typeof value === 'number' ? store.projects.get(value) : undefined;
        if (!project || project.ownerId !== user.id || project.shared === null) {
          errors.push('featured_project: Only your own shared projects can be featured.');
        } else featured = { projectId: project.id, label: featured?.label ?? '' };
      } else if (key === 'featured_project_label') {
      } else {
        throw badRequest(
          `unknown field ${JSON.stringify(key)} (bio, status, featured_project, featured_project_label)`,
        );
      }
    }
    const label = body.featured_project_label;
    if (label !== undefined) {
      if (typeof label !== 'string' || !LABELS.has(label))
        errors.push('featured_project_label: Unknown label.');
      else if (body.featured_project === undefined)
        errors.push('featured_project_label: Needs featured_project.');
      else if (featured) featured.label = label;
    }
    if (errors.length === 0 && Object.keys(texts).length === 0 && !featured)
      errors.push('Nothing to change.');
    if (errors.length > 0) return json(details(user, errors));
    Object.assign(user, texts);
    if (featured) extras.featured.set(user.id, featured);
    return json(details(user));
  });
}
