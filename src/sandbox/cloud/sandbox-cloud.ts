/**
 * The cloud part of `startSandbox`: seeds the cloud game (a shared project of the store, so it
 * shows in explore), attaches the cloud server to the sandbox's HTTP server, and routes the
 * platform's log through the sandbox's router.
 */
import type { Server } from 'node:http';
import { CLOUD_PREFIX } from '../../cloud/cloud-values.js';
import { json } from '../http-utils.js';
import type { Router } from '../router.js';
import { reader } from '../rules/auth.js';
import { canSeeProject } from '../rules/project-visibility.js';
import { Random } from '../seed/random.js';
import type { SessionTable } from '../state/sessions.js';
import type { ProjectRow, Store } from '../state/store.js';
import { seedGameHistory, seedSimpleProject } from './cloud-seed.js';
import { CloudServer } from './cloud-server.js';
import { CloudState } from './cloud-state.js';

const DAY = 86_400_000;
const iso = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString();

export interface SandboxCloudSetup {
  server: Server;
  router: Router;
  store: Store;
  sessions: SessionTable;
  seed: number;
  /** `ws://host:port`: the endpoints' paths are added to it. */
  wsBase: string;
  /** The owner of the cloud game (the main demo user). */
  owner: string;
  /** Players of the game who log in (the other demo users), besides seeded ones. */
  demoPlayers: readonly string[];
  /** The fixture project with `☁ firstCloud`, if any. */
  fixtureProjectId?: number;
  /** False turns the rate limits off (benchmarks). */
  rateLimits: boolean;
}

export interface SandboxCloud {
  server: CloudServer;
  /** The seeded cloud game. */
  projectId: number;
  /** WebSocket URL of the alternate-policy endpoint. */
  alternateHost: string;
}

export function setUpSandboxCloud(setup: SandboxCloudSetup): SandboxCloud {
  const { store } = setup;
  const rng = new Random(setup.seed * 31 + 5);
  const now = store.seedNow || Date.now();
  const owner = store.userByName(setup.owner);
  if (!owner) throw new Error(`the cloud game's owner ${setup.owner} is not in the store`);

  // Players: a dozen of the seeded community (people with a profile), then the demo users.
  const community = [...store.users.values()]
    .filter(
      (u) =>
        u.bio !== '' &&
        !u.scratchteam &&
        u.username !== setup.owner &&
        !setup.demoPlayers.includes(u.username),
    )
    .sort((a, b) => a.id - b.id);
  const players = [...rng.sample(community, 11).map((u) => u.username), ...setup.demoPlayers];

  const state = new CloudState();
  const projectId = Math.max(0, ...store.projects.keys()) + rng.int(1_000, 9_000);
  seedGameHistory(state, String(projectId), { seed: setup.seed, now, owner: owner.username, players });
  if (setup.fixtureProjectId !== undefined) {
    seedSimpleProject(
      state,
      String(setup.fixtureProjectId),
      setup.owner,
      { firstCloud: '100' },
      now - 30 * DAY,
    );
  }
  store.addProject(gameProject(store, projectId, owner.id, state, now, rng));

  const cloud = new CloudServer(
    {
      userForSession: (id) => setup.sessions.fromCookie(id)?.username ?? null,
      projectExists: (id) => store.projects.has(id),
      projectVisibleTo: (id, username) => {
        const row = store.projects.get(id);
        return row !== undefined && canSeeProject(row, username ? store.userByName(username)?.id : undefined);
      },
      state,
    },
    setup.rateLimits ? {} : { platformRateLimit: null, alternateRateLimit: null },
  ).attach(setup.server);
  setup.router.get(`${cloud.platformPath}/logs`, (req) => {
    const answer = cloud.logsAnswer(req.query, reader(req, setup.sessions)?.username ?? null);
    return json(answer.body, answer.status);
  });
  return { server: cloud, projectId, alternateHost: `${setup.wsBase}${cloud.alternatePath}` };
}

/** The game as a shared, popular project: its body is a fixture's with the game's cloud variables. */
function gameProject(
  store: Store,
  id: number,
  ownerId: number,
  state: CloudState,
  now: number,
  rng: Random,
): ProjectRow {
  const template =
    [...store.projects.values()].find((p) => p.body.includes(CLOUD_PREFIX)) ??
    [...store.projects.values()][0];
  const body = JSON.parse(
    template?.body ?? '{"targets":[],"monitors":[],"extensions":[],"meta":{"semver":"3.0.0"}}',
  );
  const stage = Array.isArray(body.targets)
    ? body.targets.find((t: { isStage?: boolean }) => t.isStage)
    : undefined;
  if (stage) {
    const variables: Record<string, [string, string, true]> = {};
    for (const [name, value] of state.project(String(id)).values) {
      variables[`cloud-${rng.hex(12)}`] = [name, String(value), true];
    }
    stage.variables = variables;
  }
  const created = now - 8 * DAY - 7 * 3_600_000;
  return {
    id,
    ownerId,
    title: 'Galaxy Dash Online',
    description:
      'Dodge the asteroids and beat the world record! High score, daily best and players online are cloud variables, shared by everyone playing.',
    instructions:
      'Arrow keys to steer, space to boost. Your score is saved to the cloud when the round ends.',
    created: iso(created),
    modified: iso(created + DAY),
    shared: iso(created + 2 * 3_600_000),
    commentsAllowed: true,
    views: 18_400 + rng.int(0, 999),
    loves: 1_260 + rng.int(0, 99),
    favorites: 980 + rng.int(0, 99),
    parent: null,
    root: null,
    language: 'en',
    tags: ['games'],
    recentLoves: 140,
    lastActivity: iso(now - 600_000),
    body: JSON.stringify(body),
  };
}
