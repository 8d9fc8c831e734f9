/**
 * Deterministic seed data: the same `seed` gives the same users, projects, studios, comments
 * and assets, byte for byte (only passwords' salts differ; they are never shown).
 */

import { contentTypeFor } from '../../project/content-types.js';
import { FIXTURE_NAMES, type FixtureName, loadFixture } from '../fixtures.js';
import { hashPassword } from '../rules/passwords.js';
import {
  type Asset,
  asset,
  assetHeavyBody,
  assetPool,
  distinctCostumes,
  generatedBody,
} from '../state/project-bodies.js';
import { seedStatistics } from '../state/site-statistics.js';
import {
  type CommentRow,
  type ProjectRow,
  Store,
  type StudioRow,
  TAGS,
  type Tag,
  type UserRow,
} from '../state/store.js';
import { Random } from './random.js';
import { seedActivity } from './seed-activity.js';
import { seedClassrooms } from './seed-classrooms.js';
import { BUSY_TOPIC_ID, FORUM_SAMPLE_CATEGORY } from './seed-forums.js';
import { seedSocial } from './social-seed.js';
import * as words from './vocabulary.js';

/** A demo login. The passwords are public on purpose: they only open the local sandbox. */
export interface DemoAccount {
  username: string;
  password: string;
}

/** Ids and names worth knowing in the seed data, for tests, docs and benchmarks. */
export interface Samples {
  demoUser: string;
  otherUser: string;
  /** A user with 2,000+ followers. */
  popularUser: string;
  /** The real fixture projects, owned by `demoUser`, shared. */
  fixtureProjects: Record<FixtureName, number>;
  /** Shared, names exactly 100 distinct assets. */
  assetHeavyProject: number;
  /** Owned by `demoUser`, not shared. */
  unsharedProject: number;
  /** The end of a remix chain of depth 3 (root → remix → remix → this), owned by `otherUser`. */
  remixedProject: number;
  /** A studio with curators, managers, projects and comments; `demoUser` curates it. */
  studio: number;
  /** A shared project with a dozen top-level comments, several with replies. */
  projectWithComments: number;
  /** A forum category of a few dozen topics and hundreds of posts: worth a crawl. */
  forumCategory: number;
  /** A forum topic of 1,250 posts (63 pages). */
  busyTopic: number;
  /** An open class of `educator` with 45 students, two class studios, activity and alerts. */
  classroom: number;
  /** Its sign-up token (`classrooms.byToken`). */
  classroomToken: string;
  /** A closed class of `educator`. */
  closedClassroom: number;
  /** An educator account (a demo login): `permissions.educator` is true. */
  educator: string;
}

interface SeedResult {
  store: Store;
  accounts: DemoAccount[];
  samples: Samples;
}

/** The demo logins, the same for every seed. The first is the main demo. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { username: 'demo_scratcher', password: 'sandbox-demo-1' },
  { username: 'other_scratcher', password: 'sandbox-other-2' },
  { username: 'StarAnimator', password: 'sandbox-star-3' },
  { username: 'demo_educator', password: 'sandbox-teach-4' },
];

const DAY = 86_400_000;
const START = Date.UTC(2012, 0, 1);
/** The seed's "now": data is dated before it; trending ranks against it. */
const SEED_NOW = Date.UTC(2026, 10, 1, 12);
const LIGHT_FOLLOWERS = 2_100;
/** 2^53: news ids above it lose digits in `JSON.parse`, as some real ones do (WIRE.md §10). */
const NEWS_BIG_ID_BASE = 2n ** 53n;

/** ISO-8601 to the second, as the real API writes dates. */
const iso = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString();

/** Fills `{animal}`, `{adj}`, `{thing}`, `{place}` and `{n}` in a template. */
function fill(rng: Random, template: string): string {
  return template.replace(/\{(animal|adj|thing|place|n)\}/g, (_, key: string) => {
    switch (key) {
      case 'animal':
        return rng.pick(words.ANIMALS);
      case 'adj':
        return rng.pick(words.ADJECTIVES);
      case 'thing':
        return rng.pick(words.THINGS);
      case 'place':
        return rng.pick(words.PLACES);
      default:
        return String(rng.int(2, 99));
    }
  });
}

/** Ids that grow with time, like the real service's, unique within one kind. */
class IdClock {
  private readonly used = new Set<number>();
  constructor(
    private readonly base: number,
    private readonly span: number,
  ) {}

  at(rng: Random, time: number): number {
    let id = this.base + Math.floor(((time - START) / (SEED_NOW - START)) * this.span) + rng.int(0, 999);
    while (this.used.has(id)) id++;
    this.used.add(id);
    return id;
  }
}

interface Person {
  row: UserRow;
  language: string;
  /** How famous: scales the stats of their projects. */
  fame: number;
  favouriteTag: Tag;
}

interface ProjectDraft {
  owner: Person;
  title: string;
  description: string;
  instructions: string;
  created: number;
  shared: boolean;
  language: string;
  tags: Tag[];
  body?: string;
  parent?: ProjectDraft;
  /** Drafts with a fixed role keep their remix links and are never picked as random remixes. */
  fixed?: boolean;
  row?: ProjectRow;
}

/** Builds the whole store for a seed. */
export async function seedStore(seed: number): Promise<SeedResult> {
  // scrypt runs on libuv's thread pool: start it first so it overlaps with the seeding below.
  const hashing = Promise.all(DEMO_ACCOUNTS.map((a) => hashPassword(a.password)));
  const rng = new Random(seed);
  const store = new Store();
  store.seedNow = SEED_NOW;

  // ---- assets ------------------------------------------------------------------------------
  const fixtures = await Promise.all(FIXTURE_NAMES.map((name) => loadFixture(name)));
  const addAsset = (a: Asset) =>
    store.assets.set(a.md5ext, { bytes: a.bytes, contentType: contentTypeFor(a.md5ext) });
  for (const fixture of fixtures) {
    for (const [md5ext, bytes] of fixture.assets)
      store.assets.set(md5ext, { bytes, contentType: contentTypeFor(md5ext) });
  }
  const popName = '83a9787d4cb6f3b7632b4ddfebf74367.wav';
  const popBytes = store.assets.get(popName)?.bytes;
  if (!popBytes) throw new Error('the fixtures lost their pop sound');
  const pool = assetPool(asset(popBytes, 'wav'));
  [...pool.backdrops, ...pool.costumes].forEach(addAsset);
  const heavyAssets = distinctCostumes(100);
  heavyAssets.forEach(addAsset);

  // ---- users -------------------------------------------------------------------------------
  const userIds = new IdClock(1_000_000, 140_000_000);
  const people: Person[] = [];
  const makePerson = (
    username: string,
    joined: number,
    extra: { scratchteam?: boolean; fame?: number; light?: boolean } = {},
  ): Person => {
    const [country, language] = rng.pick(words.COUNTRIES);
    const id = userIds.at(rng, joined);
    const row: UserRow = {
      id,
      username,
      profileId: Math.floor(id * 0.93) + rng.int(0, 99),
      scratchteam: extra.scratchteam ?? false,
      joined: iso(joined),
      status: extra.light ? '' : rng.pick(words.STATUSES),
      bio: extra.light ? '' : rng.pick(words.BIOS),
      // Some real profiles have no country (WIRE.md §10); decided by id, so the draws stay the same.
      country: id % 9 === 0 ? null : country,
    };
    store.addUser(row);
    return { row, language, fame: extra.fame ?? 0.3 + rng.next() * 2, favouriteTag: rng.pick(TAGS) };
  };

  const demo = makePerson(DEMO_ACCOUNTS[0]!.username, Date.UTC(2021, 2, 14, 16, 5), { fame: 1 });
  demo.row.country = 'United States';
  demo.row.bio = 'The sandbox demo account. Log in with the password from `sandbox.accounts`.';
  demo.row.status = 'Testing bots offline';
  demo.language = 'en';
  demo.favouriteTag = 'games';
  const other = makePerson(DEMO_ACCOUNTS[1]!.username, Date.UTC(2022, 7, 2, 9, 30), { fame: 0.8 });
  other.row.country = 'Germany';
  other.language = 'en';
  other.row.bio = 'A second demo account, for "someone else" in tests.';
  const popular = makePerson(DEMO_ACCOUNTS[2]!.username, Date.UTC(2015, 5, 20, 18, 12), { fame: 40 });
  popular.row.country = 'Canada';
  popular.row.bio = 'Animator since 2015. Thank you for 2k followers!! No requests for now, sorry.';
  popular.row.status = 'New animation every Friday';
  popular.language = 'en';
  popular.favouriteTag = 'animations';
  const team = [
    makePerson('MittenMod', Date.UTC(2013, 8, 3), { scratchteam: true, fame: 6 }),
    makePerson('BlueHarbor', Date.UTC(2014, 1, 11), { scratchteam: true, fame: 5 }),
  ];
  for (const t of team) {
    t.row.bio = 'Scratch Team member. I help run the front page and studios.';
    t.row.country = 'United States';
    t.language = 'en';
    t.favouriteTag = 'tutorials';
  }
  people.push(demo, other, popular, ...team);

  const makeName = (): string => {
    for (;;) {
      const a = rng.pick(words.NAME_FIRST);
      const b = rng.pick(words.NAME_SECOND);
      const style = rng.int(0, 19);
      const name =
        style <= 6
          ? `${a}${b}`
          : style <= 10
            ? `${a}${b}${rng.int(1, 2024)}`
            : style <= 12
              ? `${a.toLowerCase()}_${b.toLowerCase()}`
              : style <= 14
                ? `${a}-${b}`
                : style <= 17
                  ? `${a}${b}_${rng.int(10, 99)}`
                  : style === 18
                    ? `the${a}${b}`
                    : `xX${a}${b}Xx`;
      if (name.length <= 20 && !store.userByName(name)) return name;
    }
  };
  for (let i = 0; i < 44; i++) {
    people.push(makePerson(makeName(), rng.time(START, SEED_NOW - 60 * DAY)));
  }

  const lightName = (): string => {
    for (;;) {
      const style = rng.int(0, 3);
      const w = rng.pick(words.FAN_WORDS);
      const b = rng.pick(words.NAME_SECOND);
      const n = rng.int(1, 99999);
      const name =
        style === 0
          ? `${w}_${b.toLowerCase()}${n}`
          : style === 1
            ? `${w}${b}${n}`
            : style === 2
              ? `${b}${w.charAt(0).toUpperCase()}${w.slice(1)}${n}`
              : `${w}-${b.toLowerCase()}-${n % 1000}`;
      if (name.length >= 3 && name.length <= 20 && !store.userByName(name)) return name;
    }
  };
  const lights: Person[] = [];
  for (let i = 0; i < LIGHT_FOLLOWERS; i++) {
    lights.push(makePerson(lightName(), rng.time(Date.UTC(2015, 0, 1), SEED_NOW - DAY), { light: true }));
  }
  // Light accounts join at random times: follow in order of joining, newest followers first.
  lights.sort((a, b) => Date.parse(a.row.joined) - Date.parse(b.row.joined));

  // ---- follow graph ------------------------------------------------------------------------
  const named = people;
  store.follow(demo.row.id, popular.row.id);
  store.follow(demo.row.id, other.row.id);
  store.follow(other.row.id, demo.row.id);
  for (const p of named) {
    if (p !== popular && rng.chance(0.85)) store.follow(p.row.id, popular.row.id);
    for (const q of rng.sample(named, rng.int(3, 14))) store.follow(p.row.id, q.row.id);
  }
  for (const l of lights) {
    store.follow(l.row.id, popular.row.id);
    if (rng.chance(0.1)) for (const q of rng.sample(named, rng.int(1, 2))) store.follow(l.row.id, q.row.id);
  }

  // ---- projects ----------------------------------------------------------------------------
  const drafts: ProjectDraft[] = [];
  const draftFor = (owner: Person, created: number, tag?: Tag): ProjectDraft => {
    const foreign =
      owner.language !== 'en' && rng.chance(0.85) ? words.FOREIGN_TITLES[owner.language] : undefined;
    let title: string;
    let primary: Tag;
    if (foreign) {
      const [t, g] = rng.pick(foreign);
      title = t;
      primary = tag ?? g;
    } else {
      primary = tag ?? (rng.chance(0.5) ? owner.favouriteTag : rng.pick(TAGS));
      title = fill(rng, rng.pick(words.TITLE_TEMPLATES[primary]));
    }
    const tags: Tag[] = [primary];
    if (rng.chance(0.2)) {
      const second = rng.pick(TAGS);
      if (second !== primary) tags.push(second);
    }
    return {
      owner,
      title,
      description: fill(rng, rng.pick(words.DESCRIPTIONS[primary])),
      instructions: fill(rng, rng.pick(words.INSTRUCTIONS[primary])),
      created,
      shared: rng.chance(0.93),
      language: foreign ? owner.language : 'en',
      tags,
    };
  };
  const createdFor = (owner: Person): number =>
    rng.time(Math.max(Date.parse(owner.row.joined) + DAY, Date.UTC(2013, 4, 9)), SEED_NOW - 2 * DAY);

  for (const person of named) {
    if (person === demo) continue;
    const count = person === popular ? 14 : person === other ? 4 : rng.int(3, 7);
    for (let i = 0; i < count; i++) drafts.push(draftFor(person, createdFor(person)));
  }
  // The demo user's projects, with fixed roles.
  for (let i = 0; i < 4; i++) drafts.push({ ...draftFor(demo, createdFor(demo)), shared: true });
  const fixtureTitles: Record<FixtureName, [string, string, string]> = {
    cloud_variables_simple: [
      'Cloud Variables Demo',
      'A tiny project with one cloud variable (☁ firstCloud). Great for testing cloud bots.',
      'Click the green flag. The cloud variable starts at 100.',
    ],
    monitored_variables: [
      'Monitored Variables',
      'Three sprites with variables shown in monitors on the stage.',
      'Click the flag and watch the monitors.',
    ],
  };
  const fixtureDrafts = new Map<FixtureName, ProjectDraft>();
  fixtures.forEach((fixture, i) => {
    const [title, description, instructions] = fixtureTitles[fixture.name];
    const draft: ProjectDraft = {
      owner: demo,
      title,
      description,
      instructions,
      created: Date.UTC(2025, 8, 2 + i * 7, 15),
      shared: true,
      language: 'en',
      tags: ['tutorials'],
      body: fixture.projectJson,
      fixed: true,
    };
    fixtureDrafts.set(fixture.name, draft);
    drafts.push(draft);
  });
  const unshared: ProjectDraft = {
    ...draftFor(demo, Date.UTC(2026, 9, 20, 19), 'games'),
    title: 'Untitled Platformer (WIP)',
    description: 'Not finished yet, please do not share.',
    shared: false,
    fixed: true,
  };
  const heavy: ProjectDraft = {
    owner: demo,
    title: 'Flipbook: 100 Frames',
    description: 'A flipbook animation with 100 hand-made frames. Used to benchmark asset downloads.',
    instructions: 'Click the flag to flip through the frames.',
    created: Date.UTC(2026, 0, 12, 10),
    shared: true,
    language: 'en',
    tags: ['animations', 'art'],
    body: assetHeavyBody(rng, heavyAssets),
    fixed: true,
  };
  drafts.push(unshared, heavy);

  // A remix chain of depth 3: popular's game, remixed by two people, then by otherUser.
  const chainOwners = rng.sample(
    named.filter((p) => p !== popular && p !== other && p !== demo),
    2,
  );
  const chainRoot: ProjectDraft = {
    ...draftFor(popular, Date.UTC(2025, 4, 3, 17), 'games'),
    title: 'Remix Me: Platformer Engine',
    shared: true,
    fixed: true,
  };
  let chainTip = chainRoot;
  drafts.push(chainRoot);
  const chainDates = [Date.UTC(2025, 7, 19, 12), Date.UTC(2026, 0, 5, 8), Date.UTC(2026, 5, 14, 20)];
  [...chainOwners, other].forEach((owner, i) => {
    const remix: ProjectDraft = {
      ...chainRoot,
      owner,
      title: `${chainTip.title} remix`,
      created: chainDates[i]!,
      language: 'en',
      parent: chainTip,
      fixed: true,
    };
    drafts.push(remix);
    chainTip = remix;
  });
  const remixed = chainTip;

  // Ids grow with creation time, as on the real service.
  drafts.sort((a, b) => a.created - b.created);
  const projectIds = new IdClock(10_000_000, 1_180_000_000);
  for (const draft of drafts) {
    // Some projects remix an earlier shared one of someone else.
    if (!draft.fixed && rng.chance(0.12)) {
      const candidates = drafts.filter((d) => d.row && d.shared && d.owner !== draft.owner);
      if (candidates.length > 0) {
        const parent = rng.pick(candidates);
        draft.parent = parent;
        draft.title = `${parent.title} remix`.slice(0, 100);
        draft.tags = [...parent.tags];
      }
    }
    const id = projectIds.at(rng, draft.created);
    const sharedAt = draft.shared ? Math.min(draft.created + rng.int(0, 4 * DAY), SEED_NOW - DAY) : null;
    const modified = rng.time(draft.created, Math.max(draft.created + 1, sharedAt ?? SEED_NOW - DAY));
    const fame = draft.owner.fame;
    const views = draft.shared ? rng.skewed(120 * fame, 1.1) + rng.int(3, 40) : 0;
    const loves = draft.shared ? Math.round(views * (0.03 + rng.next() * 0.12)) : 0;
    const lastActivity = sharedAt === null ? modified : rng.time(sharedAt, SEED_NOW);
    const recent = SEED_NOW - lastActivity < 21 * DAY;
    const parentRow = draft.parent?.row;
    const row: ProjectRow = {
      id,
      ownerId: draft.owner.row.id,
      title: draft.title,
      description: draft.description,
      instructions: draft.instructions,
      created: iso(draft.created),
      modified: iso(modified),
      shared: sharedAt === null ? null : iso(sharedAt),
      commentsAllowed: rng.chance(0.95),
      views,
      loves,
      favorites: Math.round(loves * (0.5 + rng.next() * 0.4)),
      parent: parentRow?.id ?? null,
      root: parentRow ? (parentRow.root ?? parentRow.id) : null,
      language: draft.language,
      tags: draft.tags,
      recentLoves: recent ? rng.int(0, Math.max(1, Math.round(loves * 0.3))) : 0,
      lastActivity: iso(lastActivity),
      // A remix starts as a copy of its parent.
      body:
        draft.body ??
        parentRow?.body ??
        generatedBody(rng, pool, { cloud: draft.tags.includes('games') && rng.chance(0.3) }),
    };
    draft.row = row;
    store.addProject(row);
  }
  for (const d of fixtureDrafts.values()) d.row!.commentsAllowed = true;

  const sharedRows = drafts.filter((d) => d.row!.shared !== null).map((d) => d.row!);

  // ---- favourites --------------------------------------------------------------------------
  const favouriteCount = new Map<number, number>();
  for (const person of named) {
    const picks = rng.sample(
      sharedRows.filter((p) => p.ownerId !== person.row.id),
      rng.int(0, 10),
    );
    store.favorites.set(
      person.row.id,
      picks.map((p) => p.id),
    );
    for (const p of picks) favouriteCount.set(p.id, (favouriteCount.get(p.id) ?? 0) + 1);
  }
  for (const [id, count] of favouriteCount) {
    const row = store.projects.get(id)!;
    row.favorites = Math.max(row.favorites, count);
    row.loves = Math.max(row.loves, row.favorites);
  }

  // ---- comments ----------------------------------------------------------------------------
  const talkers = named.filter((p) => p !== demo);
  const allComments: { row: CommentRow; parent?: CommentRow }[] = [];
  const writeThread = (
    list: CommentRow[],
    ownerId: number,
    from: number,
    top: number,
    replyChance = 0.45,
  ) => {
    for (let i = 0; i < top; i++) {
      const author = rng.pick(talkers).row;
      const created = rng.time(from, SEED_NOW - DAY);
      const row: CommentRow = {
        id: 0,
        parentId: null,
        commenteeId: null,
        authorId: author.id,
        content: fill(rng, rng.pick(words.COMMENTS)),
        created: iso(created),
      };
      list.push(row);
      allComments.push({ row });
      const replies = rng.chance(replyChance) ? rng.int(1, 3) : 0;
      let at = created;
      for (let k = 0; k < replies; k++) {
        at = rng.time(at + 60_000, Math.max(at + 120_000, SEED_NOW - DAY / 2));
        const replier = k % 2 === 0 ? ownerId : author.id;
        const reply: CommentRow = {
          id: 0,
          parentId: null,
          commenteeId: k % 2 === 0 ? author.id : ownerId,
          authorId: replier === author.id && replier === ownerId ? rng.pick(talkers).row.id : replier,
          content: rng.pick(words.REPLIES),
          created: iso(at),
        };
        list.push(reply);
        allComments.push({ row: reply, parent: row });
      }
    }
  };
  const mostLoved = [...sharedRows]
    .filter((p) => p.ownerId === popular.row.id)
    .sort((a, b) => b.loves - a.loves || a.id - b.id)[0]!;
  mostLoved.commentsAllowed = true;
  for (const row of sharedRows) {
    if (!row.commentsAllowed) continue;
    const top = row === mostLoved ? 12 : rng.chance(0.45) ? 0 : rng.int(1, 5);
    const list: CommentRow[] = [];
    // The sample project gets many replies, so there is always a thread to show.
    writeThread(list, row.ownerId, Date.parse(row.shared!), top, row === mostLoved ? 0.8 : 0.45);
    if (list.length > 0) store.projectComments.set(row.id, list);
  }

  // ---- studios -----------------------------------------------------------------------------
  const studioIds = new IdClock(1_000_000, 34_000_000);
  const studioDrafts = words.STUDIOS.map(([title, tag, description], i) => ({
    title,
    tag,
    description,
    language: title === 'Le coin des créateurs' ? 'fr' : title === 'Spielewerkstatt' ? 'de' : 'en',
    created: i === 0 ? Date.UTC(2019, 3, 2) : rng.time(Date.UTC(2016, 0, 1), SEED_NOW - 90 * DAY),
  }));
  studioDrafts.sort((a, b) => a.created - b.created);
  let sampleStudio = 0;
  for (const draft of studioDrafts) {
    const speakers = named.filter((p) => p.language === draft.language && p !== demo);
    const host =
      draft.title === 'Games Galore' ? popular : rng.pick(speakers.length > 0 ? speakers : talkers);
    const others = rng.shuffle(named.filter((p) => p !== host && p !== demo));
    const managers = [host, ...others.slice(0, rng.int(1, 3))].map((p) => p.row.id);
    const curators = others.slice(4, 4 + rng.int(3, 15)).map((p) => p.row.id);
    if (draft.title === 'Games Galore') curators.unshift(demo.row.id);
    const members = new Set([...managers, ...curators]);
    const fitting = sharedRows.filter((p) => p.tags.includes(draft.tag) && p.language === draft.language);
    const pickFrom = fitting.length >= 5 ? fitting : sharedRows.filter((p) => p.tags.includes(draft.tag));
    const entries = rng
      .sample(pickFrom, rng.int(5, 25))
      .sort((a, b) => a.id - b.id)
      .map((p) => ({ projectId: p.id, actorId: members.has(p.ownerId) ? p.ownerId : rng.pick(managers) }));
    const modified = rng.time(draft.created + DAY, SEED_NOW - DAY);
    const lastActivity = rng.time(modified, SEED_NOW);
    const row: StudioRow = {
      id: studioIds.at(rng, draft.created),
      title: draft.title,
      hostId: host.row.id,
      description: draft.description,
      created: iso(draft.created),
      modified: iso(modified),
      openToAll: rng.chance(0.3),
      commentsAllowed: true,
      followers: rng.skewed(180, 1.1) + managers.length + curators.length,
      managers,
      curators,
      projects: entries,
      language: draft.language,
      tags: draft.tag === 'games' && rng.chance(0.5) ? ['games', 'art'] : [draft.tag],
      recentActivity: SEED_NOW - lastActivity < 21 * DAY ? rng.int(1, 40) : 0,
      lastActivity: iso(lastActivity),
    };
    store.studios.set(row.id, row);
    const list: CommentRow[] = [];
    writeThread(list, host.row.id, draft.created, rng.int(3, 8));
    store.studioComments.set(row.id, list);
    if (draft.title === 'Games Galore') sampleStudio = row.id;
  }
  store.featuredStudioIds.push(
    ...[...store.studios.values()]
      .sort((a, b) => b.followers - a.followers || a.id - b.id)
      .slice(0, 6)
      .map((s) => s.id),
  );

  // Comment ids grow with time too; replies learn their parent's id afterwards.
  allComments.sort((a, b) => Date.parse(a.row.created) - Date.parse(b.row.created));
  let commentId = 300_000_000;
  for (const c of allComments) {
    commentId += rng.int(1, 40_000);
    c.row.id = commentId;
  }
  for (const c of allComments) if (c.parent) c.row.parentId = c.parent.id;

  // ---- front page and news -----------------------------------------------------------------
  store.featuredProjectIds.push(
    ...rng
      .sample(
        sharedRows.filter((p) => p.loves >= 20 && p.id !== heavy.row!.id),
        12,
      )
      .map((p) => p.id),
  );
  words.NEWS.forEach(([headline, copy], i) => {
    store.news.push({
      // The two newest ids are past 2^53 (and not representable as doubles), as some real ones are.
      id:
        i < 2
          ? (NEWS_BIG_ID_BASE + 2n * BigInt(2 - i) + 1n).toString()
          : String(9_000 + words.NEWS.length - i),
      stamp: iso(SEED_NOW - i * 9 * DAY - rng.int(0, DAY)),
      headline,
      copy,
    });
  });

  seedSocial(store, demo.row.username, other.row.username, popular.row.username);
  // ---- messages, activity and statistics ---------------------------------------------------
  // Drawn from their own streams, so the rows above stay the same as before they existed.
  seedActivity(store, new Random(seed ^ 0x6163_7476), {
    demoUserId: demo.row.id,
    popularUserId: popular.row.id,
    sampleStudioId: sampleStudio,
    teamIds: team.map((t) => t.row.id),
  });
  store.statistics = seedStatistics(new Random(seed ^ 0x7374_6174), SEED_NOW);
  const classes = seedClassrooms(store, new Random(seed ^ 0x636c_6173), {
    educator: DEMO_ACCOUNTS[3]!.username,
    demoUserId: demo.row.id,
    now: SEED_NOW,
  });

  // ---- demo passwords (hashes only) --------------------------------------------------------
  const hashes = await hashing;
  DEMO_ACCOUNTS.forEach((account, i) => {
    store.userByName(account.username)!.passwordHash = hashes[i];
  });

  return {
    store,
    accounts: DEMO_ACCOUNTS.map((a) => ({ ...a })),
    samples: {
      demoUser: demo.row.username,
      otherUser: other.row.username,
      popularUser: popular.row.username,
      fixtureProjects: {
        cloud_variables_simple: fixtureDrafts.get('cloud_variables_simple')!.row!.id,
        monitored_variables: fixtureDrafts.get('monitored_variables')!.row!.id,
      },
      assetHeavyProject: heavy.row!.id,
      unsharedProject: unshared.row!.id,
      remixedProject: remixed.row!.id,
      studio: sampleStudio,
      projectWithComments: mostLoved.id,
      forumCategory: FORUM_SAMPLE_CATEGORY,
      busyTopic: BUSY_TOPIC_ID,
      ...classes,
    },
  };
}
