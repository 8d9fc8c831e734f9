/**
 * Messages, activity and remix trees in `scratchlab repl --sandbox` (a real child process in a
 * pseudo-terminal): rows as tables of actor, what, on, when; `plot` of activity rows and of a tree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplProcess } from './pty.js';

let repl: ReplProcess;

beforeAll(async () => {
  repl = await ReplProcess.start({ sandbox: true });
}, 60_000);

afterAll(async () => {
  await repl?.close();
});

describe('messages and activity in the REPL', () => {
  it('shows messages as a table: actor, what, on, when', async () => {
    const out = await repl.run('session.messages.list({ limit: 5 })');
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^actor\s+what\s+on\s+when \(UTC\)/);
    expect(lines.slice(2, 7).every((line) => /\d{4}-\d\d-\d\d \d\d:\d\d/.test(line))).toBe(true);
    expect(out).toContain('first 5 — .all() fetches all');
  });

  it('shows a profile’s activity read from HTML, and plots a studio’s activity per day', async () => {
    const profile = await repl.run('await session.users.activity(sandbox.samples.demoUser, { max: 3 })');
    expect(profile.split('\n')[2]).toMatch(/^demo_scratcher\s+\S/);
    await repl.run('const activity = await session.studios.activity(sandbox.samples.studio).all()', 30_000);
    const chart = await repl.run('plot(activity)');
    expect(chart).toContain('Activity per day');
    expect(chart).toMatch(/addprojecttostudio: \d+/);
    expect(chart).toMatch(/\d{4}-\d\d-\d\d\s+█/);
  });

  it('draws a remix tree as an outline', async () => {
    const out = await repl.run(
      'plot(await session.projects.remixTree(sandbox.samples.remixedProject))',
      30_000,
    );
    // The walk's progress bar, when drawn, is rubbed out on the line the tree then starts on.
    const lines = out.slice(out.indexOf('Remix Me: Platformer Engine (')).split('\n');
    expect(lines[0]).toMatch(/^Remix Me: Platformer Engine \(StarAnimator\) ♥ \d+/);
    expect(lines[1]).toMatch(/^└─ Remix Me: Platformer Engine remix \(/);
  });
});
