/**
 * Profile edits (WIRE.md §12.5): "About me", "What I'm working on" and the featured project, all
 * `PUT {site}/site-api/users/all/<me>/` with a JSON body, and the read of the same URL (its live
 * shape in §12.7). The site refuses content with HTTP 200 and `errors`, which is an
 * {@link ApiError} here, naming them; the answer to an edit is not otherwise read (its shape is
 * not known), so the edits answer nothing: read `details()` after.
 */
import { ApiError } from '../errors.js';
import type { ClientCore } from '../http/client-core.js';
import { readJson } from '../http/http.js';
import { parseAnswer } from '../records/answers.js';
import {
  FEATURED_LABEL_CODES,
  type FeaturedLabel,
  type FeaturedProjectData,
  type ProfileDetails,
} from '../records/profile-records.js';
import { assertString, assertUsername, toId } from '../records/validate.js';

/** The longest "About me" and "What I'm working on" the site takes. */
export const MAX_PROFILE_TEXT = 200;

/** A profile's details and featured project (no login). */
export async function readProfileDetails(session: ClientCore, username: string): Promise<ProfileDetails> {
  assertUsername(username);
  const url = profileUrl(session, username);
  const reply = await session.http.request(url);
  // Read as every API record is: protocol-relative URLs get the answer's scheme, zone-less dates a `Z`.
  const answer = readJson<unknown>(reply, 'GET', undefined, (text) => parseAnswer(text, reply.url));
  const details = profileDetailsOf(answer);
  if (!details) {
    throw new ApiError({
      status: 200,
      url,
      method: 'GET',
      body: answer,
      reason: 'the answer is not a profile (id, user {username, pk}, featured_project…)',
    });
  }
  return details;
}

const isId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const isIdOrNull = (value: unknown): value is number | null => value === null || isId(value);

/** The live answer read into its record, or `null` when it is not one. */
function profileDetailsOf(answer: unknown): ProfileDetails | null {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return null;
  const a = answer as Record<string, unknown>;
  const user = a.user as Record<string, unknown> | null | undefined;
  if (!isId(a.id) || typeof user !== 'object' || user === null) return null;
  if (typeof user.username !== 'string' || !isId(user.pk)) return null;
  if (!isIdOrNull(a.featured_project) || typeof a.featured_project_label_name !== 'string') return null;
  const label = a.featured_project_label_id;
  if (label !== null && !(typeof label === 'number' && Number.isInteger(label))) return null;
  const data = a.featured_project_data === null ? null : featuredDataOf(a.featured_project_data);
  if (data === undefined) return null;
  return {
    id: a.id,
    user: { username: user.username, pk: user.pk },
    thumbnail_url: typeof a.thumbnail_url === 'string' ? a.thumbnail_url : '',
    featured_project: a.featured_project,
    featured_project_label_id: label,
    featured_project_label_name: a.featured_project_label_name,
    featured_project_data: data,
  };
}

/** `featured_project_data`, its id a string on the live site; `undefined` when it is not one. */
function featuredDataOf(value: unknown): FeaturedProjectData | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const d = value as Record<string, unknown>;
  const id = typeof d.id === 'string' && /^\d{1,15}$/.test(d.id) ? Number(d.id) : d.id;
  if (!isId(id) || typeof d.creator !== 'string' || typeof d.title !== 'string') return undefined;
  return {
    id,
    creator: d.creator,
    title: d.title,
    thumbnail_url: typeof d.thumbnail_url === 'string' ? d.thumbnail_url : '',
    datetime_modified: typeof d.datetime_modified === 'string' ? d.datetime_modified : '',
  };
}

/** Sets "About me" or "What I'm working on" of the logged-in user. */
export async function setProfileText(
  session: ClientCore,
  field: 'bio' | 'status',
  text: string,
): Promise<void> {
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
): Promise<void> {
  const id = toId(projectId, 'project id');
  const code = Object.hasOwn(FEATURED_LABEL_CODES, label) ? FEATURED_LABEL_CODES[label] : undefined;
  if (code === undefined) {
    throw new RangeError(`label must be one of ${Object.keys(FEATURED_LABEL_CODES).join(', ')}`);
  }
  return putProfile(session, { featured_project: id, featured_project_label: code }, 'users.setFeatured');
}

async function putProfile(session: ClientCore, body: Record<string, unknown>, what: string): Promise<void> {
  session.requireAuth(what);
  const url = profileUrl(session, session.username!);
  const answer = await session.authedJson<{ errors?: unknown } | null>(url, { method: 'PUT', json: body });
  const errors = answer?.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    throw new ApiError({
      status: 200,
      url,
      method: 'PUT',
      body: answer,
      reason: errors.map(String).join('; '),
    });
  }
}

function profileUrl(session: ClientCore, username: string): string {
  return `${session.hosts.site}/site-api/users/all/${encodeURIComponent(username)}/`;
}
