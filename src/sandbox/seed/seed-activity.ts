/**
 * Seeded history of messages and activity (WIRE.md §11.1-11.2), drawn from what the seed already
 * holds: its comments, favorites, follows, shares, remixes and studios, each dated, plus loves
 * and a few messages of the rarer kinds. Deterministic for one seed. Events are written in time
 * order, so ids grow with time as on the real service.
 */
import {
  noteBecomeCurator,
  noteComment,
  noteCuratorInvite,
  noteFavorite,
  noteFollowUser,
  noteLove,
  notePromote,
  noteRemix,
  noteShare,
  noteStudioProject,
  noteStudioUpdated,
} from '../rules/activity-events.js';
import type { Store, UserRow } from '../state/store.js';
import type { Random } from './random.js';

const DAY = 86_400_000;
/** How far back the history goes: about what the real service keeps. */
const HISTORY_DAYS = 365;

/** Who plays which part in the history. */
interface ActivityCast {
  demoUserId: number;
  popularUserId: number;
  /** The studio whose activity is long enough to page through. */
  sampleStudioId: number;
  /** Scratch Team members (actors of system messages). */
  teamIds: readonly number[];
}

const FORUM_TOPICS: readonly string[] = [
  'Cloud variable limits?',
  'Show your platformer engine',
  'How do I make a scrolling background',
  'Studio curators wanted: pixel art',
];

/** Writes the history into `store.activity`. */
export function seedActivity(store: Store, rng: Random, cast: ActivityCast): void {
  const now = store.seedNow;
  const since = now - HISTORY_DAYS * DAY;
  const events: { at: number; run: (at: number) => void }[] = [];
  const at = (from: number, to = now - 60_000) =>
    rng.time(Math.max(from, since), Math.max(Math.max(from, since) + 1, to));
  const add = (time: number, run: (at: number) => void) => {
    if (time >= since && time < now) events.push({ at: time, run });
  };
  const named = [...store.users.values()].filter((u) => u.bio !== '' || u.status !== '');
  const namedIds = new Set(named.map((u) => u.id));
  const demo = store.users.get(cast.demoUserId)!;
  const team = cast.teamIds.map((id) => store.users.get(id)!);

  // Comments on projects and studios, at the time they were written.
  for (const [projectId, comments] of store.projectComments) {
    for (const comment of comments) {
      add(Date.parse(comment.created), (t) => noteComment(store, { kind: 'project', projectId }, comment, t));
    }
  }
  for (const [studioId, comments] of store.studioComments) {
    for (const comment of comments) {
      add(Date.parse(comment.created), (t) => noteComment(store, { kind: 'studio', studioId }, comment, t));
    }
  }

  // Shares and remixes.
  for (const project of store.projects.values()) {
    if (project.shared === null) continue;
    const shared = Date.parse(project.shared);
    add(shared, (t) =>
      project.parent === null ? noteShare(store, project.id, t) : noteRemix(store, project.id, t),
    );
  }

  // Favorites (the seed knows who), loves (drawn: the seed keeps only counts).
  for (const [userId, projectIds] of store.favorites) {
    for (const projectId of projectIds) {
      const project = store.projects.get(projectId)!;
      add(at(Date.parse(project.shared!)), (t) => noteFavorite(store, userId, projectId, t));
    }
  }
  const recentShared = [...store.projects.values()].filter(
    (p) => p.shared !== null && Date.parse(p.shared) > since,
  );
  const demoShared = recentShared.filter((p) => p.ownerId === demo.id);
  for (const person of named) {
    const loved = rng.sample(
      recentShared.filter((p) => p.ownerId !== person.id),
      rng.int(2, 8),
    );
    // Everyone loves something of the demo user's, so their messages have loves to show.
    if (demoShared.length > 0 && person.id !== demo.id && rng.chance(0.5)) loved.push(rng.pick(demoShared));
    for (const project of new Set(loved)) {
      add(at(Date.parse(project.shared!)), (t) => noteLove(store, person.id, project.id, t));
    }
  }

  // Follows between named users, and the newest of the popular user's many followers.
  const joinedAt = (u: UserRow) => Date.parse(u.joined);
  for (const [followerId, followedIds] of store.following) {
    const follower = store.users.get(followerId)!;
    for (const followedId of followedIds) {
      const followed = store.users.get(followedId)!;
      const named2 = namedIds.has(followerId) && namedIds.has(followedId);
      if (!named2 && !(followedId === cast.popularUserId && rng.chance(0.1))) continue;
      add(at(Math.max(joinedAt(follower), joinedAt(followed))), (t) =>
        noteFollowUser(store, followerId, followedId, t),
      );
    }
  }

  // Studios: projects added (and a few removed again), curators joining, managers promoted, edits.
  for (const studio of store.studios.values()) {
    const created = Date.parse(studio.created);
    const host = studio.hostId;
    for (const entry of studio.projects) {
      add(at(Math.max(created, Date.parse(store.projects.get(entry.projectId)!.shared!))), (t) =>
        noteStudioProject(store, studio.id, entry.actorId, entry.projectId, true, t),
      );
    }
    for (const curatorId of studio.curators)
      add(at(created), (t) => noteBecomeCurator(store, studio.id, curatorId, t));
    for (const managerId of studio.managers.slice(1)) {
      add(at(created), (t) => notePromote(store, studio.id, host, managerId, t));
    }
    const edits = studio.id === cast.sampleStudioId ? 12 : rng.int(0, 3);
    for (let i = 0; i < edits; i++) add(at(created), (t) => noteStudioUpdated(store, studio.id, host, t));
    // Projects that came and went: the sample studio gets many, so its activity runs over pages.
    const churn = studio.id === cast.sampleStudioId ? 20 : rng.int(0, 2);
    const candidates = recentShared.filter((p) => !studio.projects.some((e) => e.projectId === p.id));
    for (const project of rng.sample(candidates, churn)) {
      const actor = rng.pick(studio.managers);
      const added = at(Math.max(created, Date.parse(project.shared!)));
      add(added, (t) => noteStudioProject(store, studio.id, actor, project.id, true, t));
      add(at(added + 60_000), (t) => noteStudioProject(store, studio.id, actor, project.id, false, t));
    }
  }

  // The rarer kinds, for the demo user: an open invitation, a studio notice, forum replies,
  // and the welcome message every account gets.
  const invitable = [...store.studios.values()].filter(
    (s) => s.id !== cast.sampleStudioId && !s.curators.includes(demo.id) && !s.managers.includes(demo.id),
  );
  if (invitable.length > 0) {
    const studio = rng.pick(invitable);
    add(at(now - 20 * DAY), (t) => noteCuratorInvite(store, studio.id, studio.hostId, demo.id, t));
  }
  const sample = store.studios.get(cast.sampleStudioId);
  if (sample && team.length > 0) {
    const system = team[0]!;
    add(at(now - 40 * DAY), (t) =>
      store.activity.addMessage(
        demo.id,
        system,
        { type: 'studioactivity', gallery_id: sample.id, title: sample.title },
        t,
      ),
    );
    const host = store.users.get(sample.hostId)!;
    const former = store.users.get(sample.managers[1] ?? sample.hostId)!;
    add(at(now - 200 * DAY, now - 150 * DAY), (t) =>
      store.activity.addMessage(
        host.id,
        system,
        {
          type: 'becomehoststudio',
          gallery_id: sample.id,
          gallery_title: sample.title,
          recipient_id: host.id,
          recipient_username: host.username,
          former_host_username: former.username,
          admin_actor: true,
        },
        t,
      ),
    );
  }
  const talkers = named.filter((u) => u.id !== demo.id);
  FORUM_TOPICS.forEach((title, i) => {
    const actor = rng.pick(talkers);
    add(at(now - 90 * DAY), (t) =>
      store.activity.addMessage(
        demo.id,
        actor,
        { type: 'forumpost', topic_id: 600_000 + i * 1_337, topic_title: title },
        t,
      ),
    );
  });
  // Every account's welcome message, however long ago it joined.
  for (const person of named) {
    events.push({
      at: joinedAt(person),
      run: (t) => {
        store.activity.addMessage(person.id, person, { type: 'userjoin' }, t);
        store.activity.addUserActivity(person, { type: 'userjoin' }, t);
      },
    });
  }

  events.sort((a, b) => a.at - b.at);
  for (const event of events) event.run(event.at);

  // Everyone read their messages two weeks ago: what came since is unread.
  const readUntil = now - 14 * DAY;
  for (const [userId, messages] of store.activity.messages) {
    const read = messages.find((m) => Date.parse(m.datetime_created) < readUntil);
    if (read) store.activity.clearedUpTo.set(userId, read.id);
  }
}
