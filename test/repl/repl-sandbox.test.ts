/**
 * `scratchlab repl --sandbox` end to end: a real child process in a pseudo-terminal, typed into
 * like a person would, its screen read back. One REPL serves the whole file (its start seeds a
 * sandbox), the tests run in order.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplProcess, stripAnsi } from './pty.js';

let repl: ReplProcess;

beforeAll(async () => {
  repl = await ReplProcess.start({ sandbox: true });
}, 60_000);

afterAll(async () => {
  await repl?.close();
});

/** Lines that look like a stack trace. */
const stackLines = (text: string) => text.split('\n').filter((line) => /^\s+at\s/.test(line));

describe('scratchlab repl --sandbox', () => {
  it('greets with who is logged in where, and how to get help', () => {
    const banner = stripAnsi(repl.raw);
    expect(banner).toMatch(
      /logged in as demo_scratcher on the embedded sandbox at http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(banner).toContain('.help');
  });

  it('prints a user as a table', async () => {
    const out = await repl.run('await session.users.get(sandbox.samples.demoUser)');
    const [header, rule, row] = out.split('\n');
    expect(header).toMatch(/username\s+id\s+country\s+joined/);
    expect(rule).toMatch(/^─+/);
    expect(row).toMatch(/^demo_scratcher\s+\d+/);
  });

  it('prints a list of projects as a table, awaiting the list by itself', async () => {
    const out = await repl.run('session.users.projects(sandbox.samples.demoUser)');
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/id\s+title\s+author\s+views\s+loves/);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines.slice(2)) expect(line).toContain('demo_scratcher');
  });

  it('says how many rows were cut, and fits the table to the terminal', async () => {
    const out = await repl.run('session.users.followers(sandbox.samples.popularUser, { limit: 100 })');
    // A window of a longer list says so (issue 12 §3), not "60 more rows (100 total)".
    expect(out).toContain('40 shown of the first 100 — .all() fetches all');
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(repl.screen.cols);
  });

  it('prints an ApiError as one line: status, method, URL, reason, and no stack', async () => {
    const out = await repl.run('await session.users.get("no_such_user_zz")');
    expect(out.split('\n')).toHaveLength(1);
    expect(out).toMatch(
      /ApiError 404 Not Found · GET http:\/\/127\.0\.0\.1:\d+\/api\/users\/no_such_user_zz/,
    );
    expect(stackLines(out)).toEqual([]);
  });

  it('runs top-level await and keeps the names it declares', async () => {
    expect(await repl.run('await Promise.resolve(6 * 7)')).toBe('42');
    await repl.run('const me = await session.users.get(sandbox.samples.demoUser)');
    expect(await repl.run('me.username')).toBe("'demo_scratcher'");
  });

  it('takes a function over several lines', async () => {
    expect(await repl.run('function area(w: number,', undefined, '... ')).toBe('');
    expect(await repl.run('  h: number): number {', undefined, '... ')).toBe('');
    expect(await repl.run('  return w * h', undefined, '... ')).toBe('');
    expect(await repl.run('}')).toBe('undefined');
    expect(await repl.run('area(6, 7)')).toBe('42');
  });

  it('strips TypeScript types', async () => {
    expect(await repl.run('const n: number = 41 + 1')).toBe('undefined');
    expect(await repl.run('n')).toBe('42');
    expect(await repl.run('interface Point { x: number; y: number }')).toBe('undefined');
    expect(await repl.run('const p = { x: 1, y: 2 } as Point; p.x + p.y')).toBe('3');
    expect(await repl.run('const id = <T,>(x: T): T => x; id<string>("ok")')).toBe("'ok'");
  });

  it('draws a chart of cloud log entries, and saves it as SVG', async () => {
    await repl.run(
      'const t0 = Date.UTC(2026, 0, 1); const logs = Array.from({ length: 60 }, (_, i) => ({ user: ["alice", "bob", "carol"][i % 3], verb: "set", name: i % 2 ? "score" : "level", value: String(i % 2 ? i * 10 : Math.floor(i / 10)), timestamp: t0 + i * 60_000 }))',
    );
    const out = await repl.run('plot(logs)');
    expect(out).toContain('60 cloud log entries');
    expect(out).toMatch(/score · 30 entries · last 590/);
    expect(out).toMatch(/level · 30 entries · last 5/);
    expect(out).toContain('Activity per user (3)');
    expect(out).toMatch(/alice\s+█+\s+20/);
    expect(out).toMatch(/[╭╮╯╰─│]/);
    const file = join(repl.home, 'chart.svg');
    const saved = await repl.run(`await plot(logs).save(${JSON.stringify(file)})`, 30_000);
    expect(saved).toContain(`saved ${file}`);
    expect(readFileSync(file, 'utf8')).toMatch(/^<svg/);
  });

  it('prints the session redacted: never its X-Token', async () => {
    const token = await repl.secret('session.xToken');
    expect(token.length).toBeGreaterThan(10);
    const out = await repl.run('session');
    expect(out).toContain('[redacted]');
    expect(out).toContain('demo_scratcher');
    await repl.run('console.log(session); JSON.stringify(session)');
    expect(repl.raw).not.toContain(token);
  });

  it('answers .whoami', async () => {
    expect(await repl.run('.whoami')).toMatch(
      /^demo_scratcher \(user id \d+\) on http:\/\/127\.0\.0\.1:\d+$/,
    );
  });

  it('completes object members on Tab', async () => {
    const offset = repl.raw.length;
    repl.type('session.users.fol');
    await repl.waitFor(() => repl.screen.cursorLine().endsWith('session.users.fol'), 5000, 'the echo');
    repl.type('\t');
    await repl.waitFor(
      () => repl.screen.cursorLine().endsWith('session.users.follow'),
      5000,
      'the completion',
    );
    repl.type('\t');
    await repl.waitFor(() => repl.since(offset).includes('session.users.following'), 5000, 'the list');
    expect(repl.since(offset)).toContain('session.users.followers');
    repl.type('\x15'); // clear the line
    expect(await repl.run('1')).toBe('1');
  });

  it('shows any list of objects as a table with show()', async () => {
    const out = await repl.run('show([{ name: "Hello 世界", loves: 3 }, { name: "🎮 game", loves: 12 }])');
    expect(out.split('\n')).toEqual([
      expect.stringMatching(/^name\s+loves$/),
      expect.stringMatching(/^─+\s+─+$/),
      expect.stringMatching(/^Hello 世界\s+3$/),
      expect.stringMatching(/^🎮 game\s+12$/),
    ]);
    const records = await repl.run('show(session.users.followers(sandbox.samples.popularUser), { rows: 3 })');
    expect(records).toContain('3 shown of the first 40 — .all() fetches all');
  });

  it('imports modules, `scratchlab` itself included', async () => {
    expect(await repl.run('import { basename } from "node:path"; basename("/a/b.sb3")')).toBe("'b.sb3'");
    expect(await repl.run('import { toTable } from "scratchlab/presentation"; typeof toTable')).toBe(
      "'function'",
    );
  });

  it('interrupts a pending await and a runaway loop with Ctrl-C', async () => {
    let offset = repl.raw.length;
    // Each input says when it runs: a Ctrl-C typed before that would go to the line editor.
    repl.type("console.log('awaiting'); await new Promise(() => {})\r");
    await repl.waitFor(() => /\nawaiting\s*\n/.test(repl.since(offset)), 5000, 'the input to run');
    repl.type('\x03');
    await repl.waitFor(
      () => /Interrupted[\s\S]*scratchlab> $/.test(repl.since(offset)),
      5000,
      'the interruption',
    );
    offset = repl.raw.length;
    repl.type("console.log('looping'); while (true) {}\r");
    await repl.waitFor(() => /\nlooping\s*\n/.test(repl.since(offset)), 5000, 'the loop to run');
    repl.type('\x03');
    await repl.waitFor(
      () => /interrupted[\s\S]*scratchlab> $/i.test(repl.since(offset)),
      5000,
      'the loop to stop',
    );
    expect(await repl.run('"still here"')).toBe("'still here'");
  });

  it("prints md, html, svg and image as text; clearOutput is the kernel's only", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the input's own template literal
    expect(await repl.run('md`# ${"Scores"}`')).toBe('# Scores');
    expect(await repl.run('html`<b>bold</b>`')).toBe('<b>bold</b>');
    expect(await repl.run("svg`<svg width='2'/>`")).toBe('[SVG image, 16 characters]');
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    expect(await repl.run(`image(Buffer.from('${png}', 'base64'))`)).toBe('[PNG image, 70 bytes]');
    expect(await repl.run('typeof clearOutput')).toBe("'undefined'");
  });

  it('draws a live chart above the prompt, in place, until Ctrl-C', async () => {
    await repl.run(
      'const { EventEmitter } = await import("node:events"); const ee = new EventEmitter(); let k = 0',
    );
    await repl.run(
      'const timer = setInterval(() => ee.emit("set", { name: "☁ score", value: String(k++ % 7) }), 50)',
    );
    await repl.run('const h = live(ee, { height: 10 })');
    const changes = () => Number(/score · (\d+) changes/.exec(repl.screen.text())?.[1] ?? -1);
    await repl.waitFor(() => changes() >= 0, 5000, 'the chart');
    // Several redraws later there is still one chart, right above the prompt, which stays usable.
    const first = changes();
    await repl.waitFor(() => changes() >= first + 10, 10_000, 'ten more changes drawn');
    repl.type('1 +');
    const typed = changes();
    await repl.waitFor(
      () => changes() > typed && repl.screen.text().split('\n').at(-1) === 'scratchlab> 1 +',
      10_000,
      'a redraw with the input kept',
    );
    const screen = repl.screen.text();
    expect(screen.match(/Live: last 1m/g)).toHaveLength(1);
    const lines = screen.split('\n');
    expect(lines.at(-1)).toBe('scratchlab> 1 +');
    expect(lines.at(-2)).toMatch(/^live · Ctrl-C or \.stop\(\) to stop · \d+ points/);
    repl.type(' 1\r');
    await repl.waitFor(() => repl.screen.text().includes('scratchlab> 1 + 1\n2'), 5000, 'the input to run');
    repl.type('\x03');
    await repl.waitFor(() => /stopped · \d+ points/.test(repl.screen.text()), 5000, 'the stop');
    expect(await repl.run('clearInterval(timer); h.running')).toBe('false');
    expect(Number(await repl.run('h.data.length'))).toBeGreaterThan(10);
  });

  it('plots the log of a real cloud project and charts its live sets', async () => {
    await repl.run('const cloud = session.cloud(sandbox.cloudProjectId)');
    const out = await repl.run('plot(cloud.logs({ limit: 300 }))', 30_000);
    expect(out).toMatch(/^300 cloud log entries, \d{4}-\d\d-\d\d/);
    expect(out).toMatch(/Activity per user \(\d+\)/);
    await repl.run('const board = live(cloud, { variables: ["score"], height: 10 })');
    await repl.run(
      'const other = await Session.login(sandbox.accounts[1].username, sandbox.accounts[1].password, { hosts: sandbox.hosts }); const theirs = other.cloud(sandbox.cloudProjectId)',
      30_000,
    );
    await repl.run('await theirs.setVar("score", 77)', 30_000);
    await repl.waitFor(
      () => /score · \d+ changes? · now 77/.test(repl.screen.text()),
      10_000,
      'the live value',
    );
    expect(await repl.run('board.stop().data.at(-1).value')).toBe('77');
    await repl.run('await theirs.disconnect(); await cloud.disconnect()');
  });

  it('keeps the history in the state folder', async () => {
    await repl.run('"remember me"');
    const file = join(repl.home, 'state', 'scratchlab', 'repl_history');
    await repl.waitFor(
      () => existsSync(file) && readFileSync(file, 'utf8').includes('"remember me"'),
      5000,
      'the history',
    );
    expect(readFileSync(file, 'utf8').split('\n')).toContain('.whoami');
  });

  it('draws a progress bar on stderr for downloads and all-pages walks, then erases it', async () => {
    await repl.run(
      'const { startSandbox } = await import("scratchlab/sandbox"); const slow = await startSandbox({ latency: 40 }); const far = new Session({ hosts: slow.hosts })',
      30_000,
    );
    let offset = repl.raw.length;
    const lastLine = (text: string) => text.split(/[\r\n]/).at(-1);
    expect(
      lastLine(
        await repl.run('(await far.projects.download(slow.samples.assetHeavyProject)).assets.size', 30_000),
      ),
    ).toBe('100');
    expect(repl.since(offset)).toMatch(/download \d+ [█░]{24} \d+\/100 assets · [\d.]+ kB · [\d.]+s/);
    offset = repl.raw.length;
    expect(
      Number(
        lastLine(
          await repl.run('(await far.users.followers(slow.samples.popularUser).all()).length', 30_000),
        ),
      ),
    ).toBeGreaterThan(2000);
    expect(repl.since(offset)).toMatch(/all pages \S [\d,]+ rows · \d+ pages · [\d.]+s/);
    // Erased: the screen shows results, not bars.
    expect(repl.screen.text()).not.toMatch(/[░]|rows · \d+ pages/);
    await repl.run('await slow.close()');
  });

  it('logs out and in again with .logout and .login, the password hidden and kept out of the history', async () => {
    expect(await repl.run('.logout')).toMatch(/^logged out: anonymous on http/);
    expect(await repl.run('session.loggedIn')).toBe('false');
    const offset = repl.raw.length;
    repl.type('.login other_scratcher\r');
    await repl.waitFor(
      () => repl.since(offset).includes('Password for other_scratcher: '),
      5000,
      'the password prompt',
    );
    expect(await repl.run('sandbox-other-2')).toMatch(
      /^logged in as other_scratcher \(user id \d+\) on http/,
    );
    expect(repl.raw).not.toContain('sandbox-other-2');
    expect(await repl.run('.whoami')).toMatch(/^other_scratcher /);
    expect(await repl.run('session.username')).toBe("'other_scratcher'");
    const file = join(repl.home, 'state', 'scratchlab', 'repl_history');
    await repl.waitFor(() => readFileSync(file, 'utf8').includes('session.username'), 5000, 'the history');
    expect(readFileSync(file, 'utf8')).not.toContain('sandbox-other-2');
  });

  it('prints a wrong password as one ApiError line and keeps the session', async () => {
    const offset = repl.raw.length;
    repl.type('.login demo_scratcher\r');
    await repl.waitFor(
      () => repl.since(offset).includes('Password for demo_scratcher: '),
      5000,
      'the password prompt',
    );
    const out = await repl.run('not-the-password');
    expect(out).toMatch(/^ApiError 403 Forbidden · POST http:\/\/127\.0\.0\.1:\d+\/login\//);
    expect(stackLines(out)).toEqual([]);
    expect(await repl.run('.whoami')).toMatch(/^other_scratcher /);
  });
});
