/** Realistic platform records for the presentation tests, following `src/records/records.ts` exactly. */
import type {
  CloudLogEntry,
  Comment,
  Project,
  Studio,
  StudioProject,
  User,
} from '../../src/records/records.js';

export function user(id: number, username: string, extra: { country?: string; status?: string } = {}): User {
  return {
    id,
    username,
    scratchteam: false,
    history: { joined: '2019-03-14T09:26:53.000Z' },
    profile: {
      id: id + 1000,
      status: extra.status ?? 'I make games and animations!',
      bio: 'Hi',
      country: extra.country ?? 'Germany',
      images: { '90x90': `https://cdn2.scratch.mit.edu/get_image/user/${id}_90x90.png` },
    },
  };
}

export function project(
  id: number,
  title: string,
  author = 'griffpatch',
  stats: Partial<Project['stats']> = {},
): Project {
  return {
    id,
    title,
    description: 'A project',
    instructions: 'Press the green flag',
    visibility: 'visible',
    public: true,
    comments_allowed: true,
    is_published: true,
    author: {
      id: 1882674,
      username: author,
      scratchteam: false,
      history: { joined: '2012-10-24T17:51:48.000Z' },
      profile: {
        id: null,
        images: { '90x90': 'https://cdn2.scratch.mit.edu/get_image/user/1882674_90x90.png' },
      },
    },
    image: `https://cdn2.scratch.mit.edu/get_image/project/${id}_480x360.png`,
    images: { '282x218': `https://cdn2.scratch.mit.edu/get_image/project/${id}_282x218.png` },
    history: {
      created: '2023-01-02T10:00:00.000Z',
      modified: '2023-01-05T11:00:00.000Z',
      shared: '2023-01-03T12:34:56.000Z',
    },
    stats: { views: 123456, loves: 4321, favorites: 987, remixes: 12, ...stats },
    remix: { parent: null, root: null },
  };
}

export function studio(id: number, title: string): Studio {
  return {
    id,
    title,
    host: 1882674,
    description: 'All the best platformers',
    visibility: 'visible',
    public: true,
    open_to_all: false,
    comments_allowed: true,
    image: `https://cdn2.scratch.mit.edu/get_image/gallery/${id}_170x100.png`,
    history: { created: '2020-06-01T08:00:00.000Z', modified: '2024-02-01T08:00:00.000Z' },
    stats: { comments: 100, followers: 2500, managers: 3, projects: 1200 },
  };
}

export function comment(id: number, content: string, parent: number | null = null): Comment {
  return {
    id,
    parent_id: parent,
    commentee_id: parent === null ? null : 42,
    content,
    datetime_created: '2024-04-01T12:00:00.000Z',
    datetime_modified: '2024-04-01T12:00:00.000Z',
    visibility: 'visible',
    author: {
      id: 7,
      username: 'alice',
      scratchteam: false,
      image: 'https://cdn2.scratch.mit.edu/get_image/user/7_60x60.png',
    },
    reply_count: parent === null ? 3 : 0,
  };
}

export function studioProject(id: number, title: string): StudioProject {
  return {
    id,
    title,
    image: `https://cdn2.scratch.mit.edu/get_image/project/${id}_480x360.png`,
    creator_id: 99,
    username: 'bob',
    avatar: { '90x90': 'https://cdn2.scratch.mit.edu/get_image/user/99_90x90.png' },
    actor_id: 7,
  };
}

export function logEntry(
  timestamp: number,
  user: string,
  name: string,
  value: string,
  verb: CloudLogEntry['verb'] = 'set',
): CloudLogEntry {
  return { user, verb, name, value, timestamp };
}

export { bigLog, random } from '../support/big-log.mjs';
