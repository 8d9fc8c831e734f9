/**
 * Recorded shapes of real answers, written from WIRE.md §10 (not from our sandbox): thin list
 * rows, nulls, placeholders, protocol-relative URLs, zone-less dates, the nested /health, featured
 * rows, the forms of /session/ and of login answers. Each is declared with the record type it must
 * be, so `tsc` checks that the types accept what the wire sends. The values are ours; the keys
 * are held against answers captured from the live service (`test/fixtures/captured/`) by
 * `captured-answers.test.ts`, and /health is that capture itself.
 */
import type {
  Comment,
  Featured,
  Health,
  LoginAnswer,
  Project,
  SessionInfo,
  Studio,
  StudioProject,
  User,
  UserProjectRow,
} from '../../src/records/records.js';
import { captured } from './captured.js';

/** An image URL for every size the CDN names in a captured answer (`90x90`, `282x218`, ...). */
const sizes = (kind: string, id: number, names: string[], version = '') =>
  Object.fromEntries(
    names.map((size) => [
      size,
      `https://cdn2.scratch.mit.edu/get_image/${kind}/${id}_${size}.png?v=${version}`,
    ]),
  );
const userImages = (id: number) => sizes('user', id, ['90x90', '60x60', '55x55', '50x50', '32x32']);

/** A project token as the service issues them: `<unix seconds>_<128 hex digits>`. */
export const PROJECT_TOKEN = `1732500000_${'0123456789abcdef'.repeat(8)}`;
export const X_TOKEN = 'd6f2a1b09c7e4f3aa1b2c3d4e5f60718:xtoken-secret';

/** A row of `/users/griffpatch/projects`: its author has no username; placeholders inside. */
export const userProjectRow: UserProjectRow = {
  id: 1_076_204_740,
  title: 'Paper Minecraft',
  description: '',
  instructions: 'WASD to move',
  visibility: 'visible',
  public: true,
  comments_allowed: true,
  is_published: true,
  author: {
    id: 1_882_674,
    scratchteam: false,
    history: { joined: '1900-01-01T00:00:00.000Z' },
    profile: {
      id: null,
      images: userImages(1_882_674),
    },
  },
  image: 'https://cdn2.scratch.mit.edu/get_image/project/1076204740_480x360.png',
  images: sizes(
    'project',
    1_076_204_740,
    ['282x218', '216x163', '200x200', '144x108', '135x102', '100x80'],
    '1732500000',
  ),
  history: {
    created: '2024-09-01T10:00:00.000Z',
    modified: '2024-10-02T11:00:00.000Z',
    shared: '2024-09-03T12:00:00.000Z',
  },
  stats: { views: 59_660, loves: 7_912, favorites: 6_001, remixes: 0 },
  remix: { parent: null, root: null },
};

/** A second row, unshared history and all. */
export const userProjectRow2: UserProjectRow = {
  ...userProjectRow,
  id: 1_076_204_741,
  title: 'Geometry Dash, but "quoted", with commas',
  stats: { views: 120, loves: 3, favorites: 1, remixes: 0 },
  history: { ...userProjectRow.history, shared: null },
};

/** `/projects/<id>` read by its owner: the full author and a project token. */
export const fullProject: Project = {
  ...userProjectRow,
  author: { ...userProjectRow.author, username: 'griffpatch' },
  remix: { parent: 10_128_407, root: 10_128_407 },
  project_token: PROJECT_TOKEN,
};

/** A user whose profile gives no country. */
export const userWithoutCountry: User = {
  id: 5_000_001,
  username: 'nocountry',
  scratchteam: false,
  history: { joined: '2019-08-24T10:20:30.000Z' },
  profile: { id: 4_800_123, status: 'hi', bio: '', country: null, images: userImages(5_000_001) },
};

/** A studio whose host id names nobody we have seen. */
export const studioUnknownHost: Studio = {
  id: 30_136_012,
  title: 'Platformers',
  host: 987_654_321,
  description: '',
  visibility: 'visible',
  public: true,
  open_to_all: true,
  comments_allowed: true,
  image: 'https://cdn2.scratch.mit.edu/get_image/gallery/30136012_170x100.png',
  history: { created: '2022-01-01T00:00:00.000Z', modified: '2024-01-01T00:00:00.000Z' },
  stats: { comments: 5, followers: 2_144, managers: 2, projects: 40 },
};

/** A studio's project row, added by someone else than its creator. */
export const studioProject: StudioProject = {
  id: 1_076_204_740,
  title: 'Paper Minecraft',
  image: 'https://cdn2.scratch.mit.edu/get_image/project/1076204740_480x360.png',
  creator_id: 1_882_674,
  username: 'griffpatch',
  avatar: {},
  actor_id: 5_000_001,
};

export const comment: Comment = {
  id: 1,
  parent_id: null,
  commentee_id: null,
  content: 'Nice!',
  datetime_created: '2024-04-01T12:00:00.000Z',
  datetime_modified: '2024-04-01T12:00:00.000Z',
  visibility: 'visible',
  author: {
    id: 5_000_001,
    username: 'nocountry',
    scratchteam: false,
    image: '//cdn2.scratch.mit.edu/get_image/user/5000001_60x60.png',
  },
  reply_count: 0,
};

/** The nested /health as captured (four databases, each pool with its eight counts and flags). */
export const health: Health = captured<Health>('health.json');

/** `/proxy/featured`: snake-case rows, no author object, protocol-relative thumbnails. */
export const featured: Featured = {
  community_featured_projects: [
    {
      id: 1_076_204_740,
      title: 'Paper Minecraft',
      creator: 'griffpatch',
      thumbnail_url: '//cdn2.scratch.mit.edu/get_image/project/1076204740_480x360.png',
      type: 'project',
      love_count: 7_912,
      remixers_count: 12,
    },
  ],
  community_featured_studios: [
    {
      id: 30_136_012,
      title: 'Platformers',
      thumbnail_url: '//cdn2.scratch.mit.edu/get_image/gallery/30136012_170x100.png',
      type: 'gallery',
    },
  ],
};

/** `/session/` logged in: more fields than documented, a zone-less date, a protocol-relative URL. */
export const sessionLoggedIn: SessionInfo = {
  user: {
    id: 5_000_001,
    banned: false,
    username: 'nocountry',
    token: X_TOKEN,
    thumbnailUrl: '//cdn2.scratch.mit.edu/get_image/user/5000001_32x32.png',
    dateJoined: '2019-08-24T10:20:30',
    email: 'me@example.com',
    classroomId: null,
    should_vpn: false,
    birthYear: 2008,
    birthMonth: 5,
    gender: 'female',
  },
  permissions: {
    admin: false,
    scratcher: true,
    new_scratcher: false,
    social: true,
    educator: false,
    educator_invitee: false,
    invited_scratcher: false,
    student: false,
    mute_status: {},
  },
  flags: {
    must_reset_password: false,
    must_complete_registration: false,
    has_outstanding_email_confirmation: false,
    show_welcome: true,
    confirm_email_banner: true,
    unsupported_browser_banner: true,
    with_parent_email: false,
    project_comments_enabled: true,
    gallery_comments_enabled: true,
    userprofile_comments_enabled: true,
    everything_is_totally_normal: false,
  },
};

/** `/session/` logged out: `{}`, or flags without a user. */
export const sessionLoggedOut: SessionInfo = {};
export const sessionFlagsOnly: SessionInfo = { flags: { everything_is_totally_normal: false } };

/** A login answer without `num_tries`, with `redirect`. */
export const loginAnswer: LoginAnswer = {
  username: 'nocountry',
  token: X_TOKEN,
  success: 1,
  msg: '',
  messages: [],
  id: 5_000_001,
  redirect: '/',
};

/** A news row whose id exceeds 2^53 (its exact digits kept as text by the client). */
export const newsRow = {
  id: '9007199254740993',
  stamp: '2024-11-01T00:00:00.000Z',
  headline: 'Big id',
  url: 'https://scratch.mit.edu/news',
  image: 'https://cdn.scratch.mit.edu/scratchr2/static/__x__/news.png',
  copy: 'text',
};
