/**
 * `scratchlab repl` without `--sandbox`, offline: with nothing saved and no credentials it starts
 * anonymous on the real site without touching the network; a password prompt echoes nothing.
 */
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplProcess, SESSION_READY, stripAnsi } from './pty.js';

let repl: ReplProcess | undefined;

afterEach(async () => {
  await repl?.close();
  repl = undefined;
});

describe('scratchlab repl (no sandbox)', () => {
  it('starts anonymous when nothing is saved and no username is set', async () => {
    repl = await ReplProcess.start();
    expect(stripAnsi(repl.raw)).toContain('not logged in (anonymous reads only)');
    expect(await repl.run('.whoami')).toBe('anonymous on https://scratch.mit.edu (use .login to log in)');
    expect(await repl.run('typeof sandbox')).toBe("'undefined'");
    expect(await repl.run('typeof Session + typeof ApiError + typeof encode')).toBe(
      "'functionfunctionfunction'",
    );
    expect(await repl.run('session')).toMatch(
      /^Session \{ user: anonymous, loggedIn: false, site: https:\/\/scratch\.mit\.edu/,
    );
  });

  it('imports scratchlab itself from any working directory', async () => {
    repl = await ReplProcess.start({ cwd: tmpdir() });
    expect(await repl.run('import { toTable } from "scratchlab/presentation"; typeof toTable')).toBe(
      "'function'",
    );
    expect(await repl.run('(await import("scratchlab")).Session === Session')).toBe('true');
  });

  it('asks for the password without echoing it, and stays anonymous when the prompt is cancelled', async () => {
    const started = ReplProcess.spawn({ env: { SCRATCH_USERNAME: 'someone' } });
    repl = started;
    await started.waitFor(
      () => started.screen.text().includes('Password for someone:'),
      30_000,
      'the password prompt',
    );
    // Keys are read in order: once the Ctrl-C after it is answered, the password has been read,
    // and everything the REPL wrote (not only what the screen shows now) is without it.
    started.type('hunter2-secret');
    started.type('\x03');
    // The session's line comes once the start-up in the background is done, after the first prompt.
    await started.waitFor(
      () => SESSION_READY.test(stripAnsi(started.raw)),
      10_000,
      'the session line and a prompt',
    );
    const screen = started.screen.text();
    expect(screen).toContain('could not log in: cancelled at the password prompt');
    expect(screen).toContain('not logged in');
    expect(screen).not.toContain('hunter2');
    expect(started.raw).not.toContain('hunter2');
    expect(await started.run('session.loggedIn')).toBe('false');
  });
});
