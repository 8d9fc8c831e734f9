/**
 * The REPL's saved session on real files: written through a fresh exclusive temporary file
 * (a planted symlink is never followed), mode 0600 in a 0700 folder, and a file others can
 * read is refused with the command that fixes it. Logins are real, against the sandbox.
 */
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeSession, saveSession, UnsafeSessionFileError } from '../../src/workbench/session-store.js';
import { useSandbox } from '../support/sandbox.js';
import { toolPath } from '../support/tools.js';

const ctx = useSandbox();
let root: string;
let counter = 0;
const freshDir = async (mode = 0o700) => {
  const dir = join(root, `home${++counter}`, 'scratchlab');
  await mkdir(dir, { recursive: true });
  await chmod(dir, mode);
  return dir;
};
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'scratchlab-store-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('saveSession and resumeSession', () => {
  it('saves mode 0600 whatever the umask, and resumes the login', async () => {
    const dir = await freshDir();
    const file = join(dir, 'session.json');
    const session = await ctx.login(0);
    const old = process.umask(0);
    try {
      await saveSession(session, file);
    } finally {
      process.umask(old);
    }
    expect(await modeOf(file)).toBe(0o600);
    expect(await readdir(dir)).toEqual(['session.json']);
    const resumed = await resumeSession(file, { hosts: ctx.sandbox.hosts });
    expect(resumed?.username).toBe(session.username);
  });

  it('tightens a folder others can enter to 0700, and creates missing ones 0700', async () => {
    const dir = await freshDir(0o755);
    await saveSession(await ctx.login(0), join(dir, 'session.json'));
    expect(await modeOf(dir)).toBe(0o700);
    const nested = join(root, `home${++counter}`, 'new', 'scratchlab');
    await saveSession(await ctx.login(0), join(nested, 'session.json'));
    expect(await modeOf(nested)).toBe(0o700);
  });

  it('never follows a symlink planted at the old predictable temporary name or at the file', async () => {
    const dir = await freshDir(0o755);
    const file = join(dir, 'session.json');
    const victim = join(root, `victim${counter}.txt`);
    await writeFile(victim, 'precious');
    // The old code wrote `${file}.${pid}.tmp` with writeFile, which follows a symlink.
    await symlink(victim, `${file}.${process.pid}.tmp`);
    await saveSession(await ctx.login(0), file);
    expect(await readFile(victim, 'utf8')).toBe('precious');
    expect((await lstat(file)).isFile()).toBe(true);

    // A symlink at the file itself is replaced, not written through.
    const other = join(dir, 'other.json');
    await symlink(victim, other);
    await saveSession(await ctx.login(0), other);
    expect(await readFile(victim, 'utf8')).toBe('precious');
    expect((await lstat(other)).isSymbolicLink()).toBe(false);
    expect(await modeOf(other)).toBe(0o600);
  });

  it('refuses to resume from a file others can read, saying how to fix it', async () => {
    const dir = await freshDir();
    const file = join(dir, 'session.json');
    await saveSession(await ctx.login(0), file);
    await chmod(file, 0o644);
    const error = await resumeSession(file, { hosts: ctx.sandbox.hosts }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(UnsafeSessionFileError);
    expect((error as Error).message).toContain('can be read by others (mode 0644)');
    expect((error as Error).message).toContain(`chmod 600 ${file}`);
    await chmod(file, 0o600);
    expect((await resumeSession(file, { hosts: ctx.sandbox.hosts }))?.loggedIn).toBe(true);
  });

  it('refuses a saved session that is a symlink; a missing or broken file is simply no session', async () => {
    const dir = await freshDir();
    const real = join(dir, 'real.json');
    await saveSession(await ctx.login(0), real);
    const link = join(dir, 'session.json');
    await symlink(real, link);
    await expect(resumeSession(link, { hosts: ctx.sandbox.hosts })).rejects.toThrow(/symbolic link/);
    expect(await resumeSession(join(dir, 'missing.json'))).toBeNull();
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{"version": 1, ', { mode: 0o600 });
    expect(await resumeSession(broken)).toBeNull();
  });

  it('refuses a saved session that is a named pipe instead of waiting forever for a writer', async () => {
    const dir = await freshDir();
    const fifo = join(dir, 'session.json');
    execFileSync(toolPath('mkfifo'), ['-m', '600', fifo]);
    try {
      const error = await resumeSession(fifo, { hosts: ctx.sandbox.hosts }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(UnsafeSessionFileError);
      expect((error as Error).message).toContain('is not a regular file');
    } finally {
      // Frees a reader still blocked in open() (the old code), so the worker can end.
      await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK)
        .then((handle) => handle.close())
        .catch(() => undefined);
    }
  });
});
