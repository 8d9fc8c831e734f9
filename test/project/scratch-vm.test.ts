/**
 * The Scratch Team's VM (`scratch-vm` 5.0.300, the one scratch-gui 5.3.0 runs) loads every project
 * body the sandbox serves and every `.sb3` the SDK writes, so that no body is valid only by our
 * reading of the format. For each, the VM's own targets (names, variables, lists and messages by
 * id, top-level scripts, costumes and sounds by name and md5) must be exactly what the SDK's reader
 * says the body holds, and every costume and sound the VM fetched from the sandbox's asset host
 * (with its own storage module) must be the bytes its name promises.
 */
import { describe, expect, it } from 'vitest';
import { readSb3, type Session, writeSb3 } from '../../src/index.js';
import { seedStore } from '../../src/sandbox/seed/seed.js';
import { useSandbox } from '../support/sandbox.js';
import { bodyView, loadInVm, type TargetView } from '../support/scratch-vm.js';

// Hundreds of bodies are read: no pacing on either side (the budget has tests of its own).
const SEED = 1;
const fixture = useSandbox({ seed: SEED, rateLimit: false });
const UNPACED = { rateLimit: { perSecond: Number.POSITIVE_INFINITY } };

/** Runs `each` over `items`, `width` at a time. */
async function pool<T>(items: readonly T[], width: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await each(items[next++]!);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/** The first thing the VM and the SDK read differently in project `what`, or `undefined`. */
function difference(what: string, vm: TargetView[], sdk: TargetView[]): string | undefined {
  if (vm.length !== sdk.length) return `${what}: the VM read ${vm.length} targets, the SDK ${sdk.length}`;
  for (let i = 0; i < vm.length; i++) {
    for (const key of Object.keys(sdk[i]!) as (keyof TargetView)[]) {
      const [a, b] = [JSON.stringify(vm[i]![key]), JSON.stringify(sdk[i]![key])];
      if (a !== b) return `${what}, target ${i} (${sdk[i]!.name}), ${key}: the VM read ${a}, the SDK ${b}`;
    }
  }
  return undefined;
}

/**
 * Reads project `id` as the web client does (a token from the API, then the project host's bytes
 * as served) and as the SDK does (`projects.getJson` with the same token); loads the bytes in the
 * VM with the sandbox's asset host. Answers what differs, or `undefined`.
 */
async function check(session: Session, id: number): Promise<string | undefined> {
  const token = await session.projects.token(id);
  const answer = await fetch(`${session.projectsHost}/${id}?token=${encodeURIComponent(token)}`);
  if (answer.status !== 200) return `${id}: the project host answered ${answer.status}`;
  const served = await answer.text();
  const sdk = bodyView(await session.projects.getJson(id, { token }));
  try {
    const vm = await loadInVm(served, session.assetsHost);
    return difference(`${id}`, vm, sdk);
  } catch (error) {
    return `${id}: the VM refused it: ${(error as Error).message ?? error}`;
  }
}

describe('scratch-vm, the Scratch Team’s VM, in Node', { timeout: 300_000 }, () => {
  it('loads every project body the sandbox serves, as the SDK reads it', async () => {
    const { sandbox } = fixture;
    // Every body anyone can read: the shared projects (explore lists them all, in every language),
    // and each demo account's unshared ones, read by their owner.
    const anonymous = fixture.anonymous(UNPACED);
    const readers = new Map<number, Session>();
    for (const project of await anonymous.search.exploreProjects('*').all())
      readers.set(project.id, anonymous);
    for (let i = 0; i < sandbox.accounts.length; i++) {
      const owner = await fixture.login(i, UNPACED);
      for (const row of await owner.myStuff.projects({ filter: 'unshared' })) readers.set(row.pk, owner);
    }
    // The seed is deterministic: its own rows say which bodies are readable, so none is missed.
    const { store } = await seedStore(SEED);
    const demoIds = new Set(sandbox.accounts.map((a) => store.userByName(a.username)?.id));
    const readable = [...store.projects.values()]
      .filter((row) => row.shared !== null || demoIds.has(row.ownerId))
      .map((row) => row.id);
    // The cloud game is added when the sandbox starts, after the seed.
    expect([...readers.keys()].sort()).toEqual([...readable, sandbox.cloudProjectId].sort());

    const problems: string[] = [];
    await pool([...readers], 8, async ([id, session]) => {
      const problem = await check(session, id);
      if (problem) problems.push(problem);
    });
    expect(problems).toEqual([]);
  });

  it('loads every .sb3 the SDK writes and the bodies its create, save and remix leave', async () => {
    const { sandbox } = fixture;
    const owner = await fixture.login(0, UNPACED);
    const { fixtureProjects, assetHeavyProject, remixedProject } = sandbox.samples;
    // What the SDK writes to the sandbox: an empty project, a real one created and saved again
    // from its downloaded files, and a remix.
    const real = await owner.projects.download(fixtureProjects.cloud_variables_simple);
    const created = [
      await owner.projects.create({ title: 'empty' }),
      await owner.projects.create({ title: 'copy', json: real.json, assets: real.assets }),
      await owner.projects.remix(fixtureProjects.monitored_variables),
    ];
    await owner.projects.save(
      created[0]!,
      await owner.projects.download(fixtureProjects.monitored_variables),
    );
    const problems: string[] = [];
    for (const id of created) {
      const problem = await check(owner, id);
      if (problem) problems.push(problem);
    }
    // What the SDK writes to disk: the .sb3 of each, and of the sandbox's real, asset-heavy and
    // generated projects. The VM reads the files from the archive and the SDK reads it back.
    const written = [...created, fixtureProjects.cloud_variables_simple, assetHeavyProject, remixedProject];
    for (const id of written) {
      const sb3 = writeSb3(await owner.projects.download(id));
      const sdk = bodyView(readSb3(sb3).json);
      try {
        const vm = await loadInVm(sb3);
        const problem = difference(`${id}.sb3`, vm, sdk);
        if (problem) problems.push(problem);
      } catch (error) {
        problems.push(`${id}.sb3: the VM refused it: ${(error as Error).message ?? error}`);
      }
    }
    expect(problems).toEqual([]);
    // The views are not empty by accident: the saved project is the monitored one, three sprites.
    const saved = await loadInVm(writeSb3(await owner.projects.download(created[0]!)));
    expect(saved.map((t) => t.name)).toEqual(['Stage', 'Referee', 'Jamal']);
    expect(saved[0]!.variables).toMatchObject({ '`jEk@4|i[#Fk?(8x)AV.-my variable': 'scalar:my variable' });
  });
});
