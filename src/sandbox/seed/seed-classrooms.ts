/**
 * Seeds the classrooms (WIRE.md §12.2) and the backpacks (§12.3): an educator with an open class
 * of students (enough for several pages), two class studios, a week of class activity and a
 * few alerts; a closed class; and a backpack of each kind of item for the demo user. Drawn from
 * a stream of their own, after everything else, so the rest of the seed stays as it was.
 */
import { md5Hex } from '../../project/assets.js';
import type { ClassActivityRow } from '../state/classrooms.js';
import type { Store, StudioRow, UserRow } from '../state/store.js';
import type { Random } from './random.js';
import * as words from './vocabulary.js';

const DAY = 86_400_000;
/** Students of the open class: more than two pages of the students page. */
const STUDENTS = 45;
/** Ids of the seeded classroom users, above every other seeded user's. */
const FIRST_USER_ID = 150_000_000;
const FIRST_STUDIO_ID = 39_000_000;
const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** What the seed names for tests and docs. */
export interface ClassroomSamples {
  /** The open class, run by `educator`. */
  classroom: number;
  /** Its sign-up token. */
  classroomToken: string;
  /** A closed class of the same educator. */
  closedClassroom: number;
  /** The educator's username (a demo login). */
  educator: string;
}

const iso = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString();

/** Adds the educator, the students, the classes and the backpacks. */
export function seedClassrooms(
  store: Store,
  rng: Random,
  setup: { educator: string; demoUserId: number; now: number },
): ClassroomSamples {
  let nextUserId = FIRST_USER_ID;
  const addUser = (username: string, joined: number, extra: Partial<UserRow> = {}): UserRow => {
    const id = nextUserId++;
    // The community picks of other seeds look for a bio: these users have none, so they stay out.
    const row: UserRow = {
      id,
      username,
      profileId: Math.floor(id * 0.93),
      scratchteam: false,
      joined: iso(joined),
      status: '',
      bio: '',
      country: 'United States',
      ...extra,
    };
    store.addUser(row);
    return row;
  };
  const start = setup.now - 120 * DAY;
  const educator = addUser(setup.educator, Date.UTC(2019, 8, 2, 8), {
    status: 'Teaching Scratch to grade 6',
  });
  store.classrooms.educators.add(educator.id);

  const students: UserRow[] = [];
  while (students.length < STUDENTS) {
    const name = `${rng.pick(words.NAME_FIRST).toLowerCase()}_class${rng.int(10, 9999)}`;
    if (name.length > 20 || store.userByName(name)) continue;
    students.push(addUser(name, start + rng.int(0, 3) * DAY));
  }

  let nextStudioId = FIRST_STUDIO_ID;
  const classStudio = (title: string, created: number): StudioRow => {
    const row: StudioRow = {
      id: nextStudioId++,
      title,
      hostId: educator.id,
      description: 'A class studio: every student may add projects.',
      created: iso(created),
      modified: iso(created),
      openToAll: false,
      commentsAllowed: true,
      followers: 0,
      managers: [educator.id],
      curators: [],
      projects: [],
      language: 'en',
      tags: [],
      recentActivity: 0,
      lastActivity: iso(created),
    };
    store.studios.set(row.id, row);
    return row;
  };
  const studios = [
    classStudio('Unit 1: Animation', start + DAY),
    classStudio('Unit 2: Games', start + 40 * DAY),
  ];

  // A week of what the students did, newest first; targets are other seeded projects and users.
  const projects = [...store.projects.values()].filter((p) => p.shared !== null);
  const activity: ClassActivityRow[] = [];
  const types = [0, 2, 2, 3, 7, 10, 1];
  for (let i = 0; i < 60; i++) {
    const type = rng.pick(types);
    const actor = rng.pick(students);
    const row: ClassActivityRow = { type, actorId: actor.id, created: iso(setup.now - rng.int(0, 7 * DAY)) };
    if (type === 2 || type === 3 || type === 10 || type === 7) row.projectId = rng.pick(projects).id;
    if (type === 7 || type === 1) row.studioId = rng.pick(studios).id;
    if (type === 0) row.followedId = rng.pick(students.filter((s) => s !== actor)).id;
    activity.push(row);
  }
  activity.sort((a, b) => b.created.localeCompare(a.created));

  const token = rng.chars(20, TOKEN_ALPHABET);
  const open = store.classrooms.add({
    id: 410_001,
    title: 'Grade 6 Coding Club',
    description: 'We learn to code by making games, stories and animations.',
    status: 'Unit 2: making a platformer',
    educatorId: educator.id,
    token,
    created: iso(start),
    ended: null,
    studentIds: students.map((s) => s.id),
    studioIds: studios.map((s) => s.id),
    activity,
  });
  const closed = store.classrooms.add({
    id: 409_870,
    title: 'Summer Camp 2025',
    description: 'Two weeks of Scratch.',
    status: 'All done: thank you!',
    educatorId: educator.id,
    token: rng.chars(20, TOKEN_ALPHABET),
    created: iso(start - 90 * DAY),
    ended: iso(start - 76 * DAY),
    studentIds: students.slice(0, 6).map((s) => s.id),
    studioIds: [],
    activity: [],
  });

  // Alerts: a comment of a student removed, a project reviewed, a notification.
  const alert = (type: number, student: UserRow, days: number, extra: Record<string, unknown>) =>
    store.classrooms.alerts.push({
      pk: 7_000 + store.classrooms.alerts.length,
      educatorId: educator.id,
      classroomId: open.id,
      type,
      targetUserId: student.id,
      objectId: rng.int(1_000_000, 9_000_000),
      created: iso(setup.now - days * DAY),
      read: null,
      extra,
    });
  alert(6, students[0]!, 2, {
    comment_content: { content: 'spam spam spam', comment_obj_id: projects[0]!.id, comment_type: 0 },
  });
  alert(9, students[1]!, 5, { project_title: 'My first game' });
  alert(4, students[2]!, 9, { notification_type: 'community guidelines reminder' });

  seedBackpack(store, rng, setup.demoUserId);
  return {
    classroom: open.id,
    classroomToken: token,
    closedClassroom: closed.id,
    educator: educator.username,
  };
}

/** Five items of every kind for the demo user's backpack, with their files. */
function seedBackpack(store: Store, rng: Random, userId: number): void {
  const { backpacks } = store;
  const file = (bytes: Uint8Array, ext: string, contentType: string): string => {
    const name = `${md5Hex(bytes)}.${ext}`;
    backpacks.files.set(name, { bytes, contentType });
    return name;
  };
  const text = (value: string) => new TextEncoder().encode(value);
  const thumb = file(
    text('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'),
    'svg',
    'image/svg+xml',
  );
  const kinds = [
    ['script', 'application/json', 'json'],
    ['costume', 'image/svg+xml', 'svg'],
    ['sound', 'audio/x-wav', 'wav'],
    ['sprite', 'application/zip', 'zip'],
  ] as const;
  const list = backpacks.of(userId);
  for (let i = 0; i < 44; i++) {
    const [type, mime, ext] = kinds[i % kinds.length]!;
    const label = `${rng.pick(words.ADJECTIVES)} ${rng.pick(words.ANIMALS)}`;
    const body =
      type === 'script'
        ? text(JSON.stringify([{ opcode: 'event_whenflagclicked', next: null, topLevel: true, x: 0, y: i }]))
        : type === 'costume'
          ? text(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><title>${i}</title></svg>`)
          : text(`${type} ${i} ${label}`);
    list.push({
      id: `${rng.hex(8)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(12)}`,
      type,
      mime,
      name: type === 'script' ? 'code' : label,
      body: file(body, ext, mime),
      thumbnail: thumb,
    });
  }
}
