import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../src/index.js';

// The built command, as a user runs it (test/run.sh builds dist/ first).
const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [cli, ...args]);
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('scratchlab sandbox', () => {
  it('prints its hosts and demo logins, and serves them', async () => {
    child = spawn(process.execPath, [cli, 'sandbox', '--port', '0', '--seed', '1']);
    const banner = await new Promise<string>((resolve, reject) => {
      let text = '';
      child!.stdout!.on('data', (d) => {
        text += d;
        if (text.includes('Ctrl-C')) resolve(text);
      });
      child!.on('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    const api = banner.match(/api\s+(http:\/\/\S+)/)?.[1];
    const site = banner.match(/site\s+(http:\/\/\S+)/)?.[1];
    const login = banner.match(/demo logins:\n\s+(\S+)\s+(\S+)/);
    expect(api).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const session = await Session.login(login![1]!, login![2]!, { hosts: { api, site } });
    expect(session.username).toBe(login![1]);
    expect((await session.news()).length).toBeGreaterThan(0);
  });

  it('--rate-limit N keeps the platform limit per address: 429 past it', async () => {
    child = spawn(process.execPath, [cli, 'sandbox', '--port', '0', '--rate-limit', '2', '--no-retry-after']);
    const banner = await new Promise<string>((resolve, reject) => {
      let text = '';
      child!.stdout!.on('data', (d) => {
        text += d;
        if (text.includes('Ctrl-C')) resolve(text);
      });
      child!.on('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    expect(banner).toContain('rate limit: 2 requests a second per address (burst 2)');
    const api = banner.match(/api\s+(http:\/\/\S+)/)![1]!;
    const answers = await Promise.all([1, 2, 3, 4].map(() => fetch(`${api}/health`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 429, 429]);
    expect(answers.map((answer) => answer.headers.get('retry-after'))).toEqual([null, null, null, null]);
    await Promise.all(answers.map((answer) => answer.text()));
    const bad = await run(['sandbox', '--rate-limit', 'lots']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--rate-limit must be a number of requests a second > 0, got lots');
  });

  it('explains bad arguments and unknown commands', async () => {
    const bad = await run(['sandbox', '--latency', 'soon']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--latency must be a whole number');
    const unknown = await run(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const help = await run(['--help']);
    expect(help.stdout).toMatch(/Usage: scratchlab <command>/);
  });
});

describe('the built command', () => {
  it('is executable, so npx and npm bin links can run it directly', async () => {
    const { statSync } = await import('node:fs');
    expect(statSync(cli).mode & 0o111).not.toBe(0);
    const help = await run(['sandbox', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--latency MS');
  });
});
