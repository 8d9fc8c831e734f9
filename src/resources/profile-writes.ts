/**
 * Profile edits (WIRE.md §12.5): "About me", "What I'm working on" and the featured project, all
 * `PUT {site}/site-api/users/all/<me>/` with a JSON body, and the read of the same URL. The site
 * refuses content with HTTP 200 and `errors`, which is an {@link ApiError} here, naming them.
 */
import { ApiError } from '../errors.js';
import type { ClientCore } from '../http/client-core.js';
import { FEATURED_LABEL_CODES, type FeaturedLabel, type ProfileDetails } from '../records/profile-records.js';
import { assertString, assertUsername, toId } from '../records/validate.js';

/** The longest "About me" and "What I'm working on" the site takes. */
export const MAX_PROFILE_TEXT = 200;

/** A profile's details and featured project (no login). */
export async function readProfileDetails(session: ClientCore, username: string): Promise<ProfileDetails> {
  assertUsername(username);
  return session.http.json<ProfileDetails>(profileUrl(session, username));
}

/** Sets "About me" or "What I'm working on" of the logged-in user. */
export async function setProfileText(
  session: ClientCore,
  field: 'bio' | 'status',
  text: string,
): Promise<ProfileDetails> {
  const name = field === 'bio' ? 'about' : 'workingOn';
  assertString(text, name);
  if (text.length > MAX_PROFILE_TEXT) {
    throw new RangeError(`${name} must be at most ${MAX_PROFILE_TEXT} characters long, got ${text.length}`);
  }
  return putProfile(session, { [field]: text }, field === 'bio' ? 'users.setAbout' : 'users.setWorkingOn');
}

/** Features one of the logged-in user's shared projects on their profile, under a named label. */
export async function setFeaturedProject(
  session: ClientCore,
  projectId: number | string,
  label: FeaturedLabel = 'featured-project',
): Promise<ProfileDetails> {
  const id = toId(projectId, 'project id');
  const code = Object.hasOwn(FEATURED_LABEL_CODES, label) ? FEATURED_LABEL_CODES[label] : undefined;
  if (code === undefined) {
    throw new RangeError(`label must be one of ${Object.keys(FEATURED_LABEL_CODES).join(', ')}`);
  }
  return putProfile(session, { featured_project: id, featured_project_label: code }, 'users.setFeatured');
}

async function putProfile(
  session: ClientCore,
  body: Record<string, unknown>,
  what: string,
): Promise<ProfileDetails> {
  session.requireAuth(what);
  const url = profileUrl(session, session.username!);
  const answer = await session.authedJson<ProfileDetails>(url, { method: 'PUT', json: body });
  if (Array.isArray(answer?.errors) && answer.errors.length > 0) {
    throw new ApiError({ status: 200, url, method: 'PUT', body: answer, reason: answer.errors.join('; ') });
  }
  return answer;
}

function profileUrl(session: ClientCore, username: string): string {
  return `${session.hosts.site}/site-api/users/all/${encodeURIComponent(username)}/`;
}
