/**
 * The REPL tells the truth (issue 12 §4, §2): Ctrl-C aborts the call itself, promises are awaited,
 * a new `session` is noticed, no secret is printed, completion lists what matters, `display()`
 * updates in place, caller mistakes name the user's line. A real REPL in a pseudo-terminal, and a
 * slow sandbox (latency) in this process for the walks Ctrl-C must stop.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Sandbox, startSandbox } from 'scratchlab/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT, ReplProcess, ROOT } from './pty.js';

let repl: ReplProcess;
let slow: Sandbox;
/** Requests the slow sandbox has received so far. */
let requests = 0;

beforeAll(async () => {
  [repl, slow] = await Promise.all([ReplProcess.start({ sandbox: true }), startSandbox({ latency: 150 })]);
  slow.server.on('request', () => {
    requests++;
  });
}, 60_000);

afterAll(async () => {
  await repl?.close();
  await slow?.close();
});

const stackLines = (text: string) => text.split('\n').filter((line) => /^\s+at\s/.test(line));

describe('the REPL tells the truth', () => {
  it('aborts a long walk on Ctrl-C: the requests stop, nothing is bound, the prompt is clean', async () => {
    await repl.run(`const slowSession = new Session({ hosts: ${JSON.stringify(slow.hosts)} })`);
    const offset = repl.raw.length;
    const before = requests;
    repl.type(
      `const everyone = await slowSession.users.followers(${JSON.stringify(slow.samples.popularUser)}).all()\r`,
    );
    await repl.waitFor(() => requests - before >= 3, 10_000, 'the walk to start');
    repl.type('\x03');
    await repl.waitFor(
      () =>
        /InterruptedError: Interrupted by Ctrl-C: the call was aborted\n.*scratchlab> $/.test(
          repl.since(offset),
        ),
      5000,
      'the interruption',
    );
    const atInterrupt = requests;
    expect(repl.screen.cursorLine()).toBe(PROMPT.trimEnd());
    // A walk left running would keep fetching pages (2,000+ followers: 50+ pages) and bind the name:
    // by the end of two later requests of the same session (same budget), pages would have come.
    const later = `(await slowSession.users.get(${JSON.stringify(slow.samples.demoUser)})).username`;
    for (let i = 0; i < 2; i++) expect(await repl.run(later)).toBe(`'${slow.samples.demoUser}'`);
    expect(requests - atInterrupt).toBe(2);
    expect(await repl.run('typeof everyone')).toBe("'undefined'");
    // A download takes the input's signal too.
    const download = repl.raw.length;
    const downloads = requests;
    repl.type(`await slowSession.projects.download(${slow.samples.assetHeavyProject})\r`);
    await repl.waitFor(() => requests - downloads >= 2, 10_000, 'the download to start');
    repl.type('\x03');
    await repl.waitFor(
      () => /InterruptedError[\s\S]*scratchlab> $/.test(repl.since(download)),
      5000,
      'the stop',
    );
    const atStop = requests;
    for (let i = 0; i < 2; i++) expect(await repl.run(later)).toBe(`'${slow.samples.demoUser}'`);
    expect(requests - atStop).toBe(2);
  });

  it('awaits a plain promise left as the value', async () => {
    expect(await repl.run('new Promise((resolve) => setTimeout(() => resolve(6 * 7), 50))')).toBe('42');
    expect(await repl.run('Promise.reject(new RangeError("nope"))')).toMatch(/RangeError: nope/);
  });

  it('warns when `session` is replaced at the prompt, and .whoami follows it', async () => {
    const out = await repl.run('const session = new Session({ hosts: sandbox.hosts })');
    expect(out).toMatch(
      /note: `session` is now the Session made at the prompt \(anonymous on http:\/\/127\.0\.0\.1:\d+ \(use \.login to log in\)\)/,
    );
    expect(await repl.run('.whoami')).toMatch(/^anonymous on http:\/\/127\.0\.0\.1:\d+/);
  });

  it('prints no secret: token-like keys of plain objects are redacted', async () => {
    const me = await repl.run(
      'const logged = await Session.login(sandbox.accounts[0].username, sandbox.accounts[0].password, { hosts: sandbox.hosts }); logged.username',
    );
    expect(me).toBe("'demo_scratcher'");
    const token = await repl.secret('logged.xToken');
    expect(token.length).toBeGreaterThan(10);
    const answer = await repl.run('await logged.refreshSession()');
    expect(answer).toContain('demo_scratcher');
    const nested = await repl.run(
      '({ user: { name: "x", token: logged.xToken }, list: [{ password: "hun" + "ter2" }] })',
    );
    expect(nested).toContain("token: '[redacted]'");
    expect(nested).toContain("password: '[redacted]'");
    expect(repl.raw).not.toContain(token);
    expect(repl.raw).not.toContain('hunter2');
  });

  it('lists own members first on Tab, without Object.prototype, and completes one match in place', async () => {
    // Every member starts with `t` (own `total`, `tally`; the class's `tangent`), as do
    // Object.prototype's `toString` and `toLocaleString`: the first Tab visibly completes the `t`.
    await repl.run(
      'class Shape { tangent() { return 0 } }; const zz = Object.assign(new Shape(), { total: 1, tally: 2 })',
    );
    let offset = repl.raw.length;
    repl.type('zz.');
    await repl.waitFor(() => repl.screen.cursorLine().endsWith('zz.'), 5000, 'the echo of zz.');
    // readline takes a Tab typed while it completes the one before as text, so the second Tab waits
    // for the first's completion to show.
    repl.type('\t');
    await repl.waitFor(() => repl.screen.cursorLine().endsWith('zz.t'), 5000, 'the common part, t');
    repl.type('\t'); // the second Tab lists
    // The list, then the prompt and the input drawn again below it: the list is whole.
    await repl.waitFor(
      () => /zz\.tangent[\s\S]*\n\s*scratchlab> zz\.t$/.test(repl.since(offset)),
      5000,
      'the list and the prompt after it',
    );
    const list = repl.since(offset);
    expect(list).not.toMatch(/toString|toLocaleString/);
    expect(list.indexOf('zz.tally')).toBeLessThan(list.indexOf('zz.tangent'));
    expect(list.indexOf('zz.total')).toBeLessThan(list.indexOf('zz.tangent'));
    repl.type('\x15');
    expect(await repl.run('1')).toBe('1');
    // `to` matches toString and toLocaleString too in node's list; here only `total`.
    offset = repl.raw.length;
    repl.type('zz.to');
    await repl.waitFor(() => repl.screen.cursorLine().endsWith('zz.to'), 5000, 'the echo of zz.to');
    repl.type('\t');
    await repl.waitFor(() => repl.screen.cursorLine().endsWith('zz.total'), 5000, 'the completion');
    repl.type('\r');
    await repl.waitFor(() => repl.since(offset).trimEnd().endsWith(PROMPT.trimEnd()), 5000, 'the prompt');
    expect(repl.since(offset)).toMatch(/\n1\n/);
  });

  it('display() shows a value and update() replaces it in place', async () => {
    const shown = await repl.run('const h = display({ step: "first" })');
    expect(shown).toBe("{ step: 'first' }");
    // The raw output holds the redraw (cursor up, the new line, back down): read the screen.
    await repl.run('h.update({ step: "second" }); 7');
    const screen = repl.screen.text();
    expect(screen).toContain('scratchlab> h.update({ step: "second" }); 7\n7\n');
    expect(screen).not.toContain("{ step: 'first' }");
    expect(screen).toContain('scratchlab> const h = display({ step: "first" })\n{ step: \'second\' }\n');
    // Updated from a timer while the prompt waits: still one output, redrawn in place.
    await repl.run(
      'const ticks = display("tick 0"); let n = 0; const t3 = setInterval(() => ticks.update("tick " + ++n), 50)',
    );
    await repl.waitFor(() => /'tick [5-9]'/.test(repl.screen.text()), 5000, 'a few updates');
    expect(await repl.run('clearInterval(t3); "after"')).toBe("'after'");
    expect(repl.screen.text().match(/'tick \d+'/g)).toHaveLength(1);
    // Taller than the old output: printed anew, below the input that asked for it.
    await repl.run(
      'h.update(Object.fromEntries(Array.from({ length: 12 }, (_, i) => ["key" + i, "v".repeat(30)])))',
    );
    expect(repl.screen.text()).toMatch(/h\.update\(Object[^\n]*\n\{\n\s+key0: 'v+',[\s\S]*key11/);
    // Objects with a Jupyter MIME bundle show from it.
    const bundle = await repl.run(
      'display({ [Symbol.for("Jupyter.display")]() { return { "text/html": "<b>bold</b> &amp; more" } } })',
    );
    expect(bundle).toBe('bold & more');
    expect(
      await repl.run(
        '({ [Symbol.for("Jupyter.display")]() { return { "text/plain": "plain text", "text/html": "<i>x</i>" } } })',
      ),
    ).toBe('plain text');
  });

  it('shows a caller mistake as its message and the user line, without the SDK frames', async () => {
    const out = await repl.run('session.users.followers("someone", { limit: 0 })');
    expect(out).toContain('RangeError: limit must be at least 1, got 0');
    expect(out).toContain('at your line: session.users.followers("someone", { limit: 0 })');
    expect(out).not.toContain('validate.js');
    expect(stackLines(out).filter((line) => !line.includes('your line'))).toEqual([]);
    expect(await repl.run('session.users.followers("someone", { limit: 2.5 })')).toContain(
      'TypeError: limit must be a whole number, got 2.5',
    );
  });

  it('prints the sandbox as a short summary', async () => {
    const out = await repl.run('sandbox');
    expect(out.split('\n')).toHaveLength(1);
    expect(out).toMatch(
      /^Sandbox \{ url: http:\/\/127\.0\.0\.1:\d+, accounts: demo_scratcher, .*projects: \d+/,
    );
  });

  it('clears the half-typed line when Ctrl-C stops a live chart', async () => {
    await repl.run('const { EventEmitter: E2 } = await import("node:events"); const e2 = new E2()');
    await repl.run('const t2 = setInterval(() => e2.emit("set", { name: "☁ n", value: "1" }), 50)');
    await repl.run('live(e2, { height: 8 })');
    repl.type('half typed');
    // The chart has drawn a few points, and the half-typed input is on the prompt line.
    const drawn = () =>
      Number(/live · Ctrl-C or \.stop\(\) to stop · (\d+) points/.exec(repl.screen.text())?.[1]);
    await repl.waitFor(() => drawn() >= 2 && repl.screen.text().includes('half typed'), 5000, 'the echo');
    repl.type('\x03');
    await repl.waitFor(() => /stopped · \d+ points/.test(repl.screen.text()), 5000, 'the stop');
    await repl.waitFor(() => repl.screen.cursorLine() === PROMPT.trimEnd(), 5000, 'a clean prompt');
    await repl.run('clearInterval(t2)');
  });
});

describe('start-up in the background', () => {
  it('lets a first input that names `session` wait for the sandbox and the login', async () => {
    const early = await ReplProcess.start({ sandbox: true, waitForSession: false });
    try {
      // The session line comes once the session is open (usually while this input waits for it).
      const out = await early.run('session.username', 30_000);
      expect(out.split('\n').at(-1)).toBe("'demo_scratcher'");
      expect(early.screen.text()).toMatch(/logged in as demo_scratcher on the embedded sandbox at http/);
    } finally {
      await early.close();
    }
  }, 60_000);
});

describe('scratchlab --version and --help', () => {
  const run = promisify(execFile);
  const cli = join(ROOT, 'dist', 'cli.js');
  it('prints the version and the help', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect((await run(process.execPath, [cli, '--version'])).stdout).toBe(`scratchlab ${version}\n`);
    const help = (await run(process.execPath, [cli, '--help'])).stdout;
    expect(help).toMatch(/^Usage: scratchlab <command>/);
    expect(help).toContain('repl [--sandbox]');
    expect((await run(process.execPath, [cli, 'repl', '--help'])).stdout).toMatch(/^Usage: scratchlab repl/);
  });
});
