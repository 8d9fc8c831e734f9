import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from 'scratchlab/data';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLive, type LiveHost, stopLiveCharts } from '../../repl/display/live.js';
import { Activity } from '../../repl/terminal/activity.js';
import { Screen } from './screen.js';

/** A terminal: what is written lands on a screen; the prompt is redrawn like readline does. */
class FakeTerminal extends EventEmitter {
  readonly columns = 80;
  readonly rows = 30;
  readonly screen = new Screen(80, 30);
  line = '';
  write(text: string): boolean {
    this.screen.write(text.replace(/\n/g, '\r\n'));
    return true;
  }
  prompt(): void {
    this.write(`\r\x1b[0Jscratchlab> ${this.line}`);
  }
}

function setup(store?: Store) {
  const terminal = new FakeTerminal();
  const activity = new Activity();
  const host: LiveHost = {
    output: terminal as unknown as NodeJS.WriteStream,
    activity,
    store,
    color: false,
    cursorRow: () => 0,
    redrawPrompt: () => terminal.prompt(),
  };
  terminal.prompt();
  return { terminal, activity, live: createLive(host), cloud: new EventEmitter() };
}

afterEach(() => {
  stopLiveCharts();
  vi.useRealTimers();
});

describe('live', () => {
  it('draws a query of the store and redraws it as rows arrive from another user of the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scratchlab-live-query-'));
    const file = join(dir, 'live.duckdb');
    const reader = new Store(file);
    const writer = new Store(file); // another Store on the file: it takes turns as another process would
    try {
      await writer.load('points', [{ minute: new Date(Date.UTC(2024, 0, 1)), players: 1 }], { key: false });
      const { live, terminal } = setup(reader);
      const chart = live({
        sql: 'select minute, players from points order by minute',
        every: 0.2,
        height: 14,
      });
      const waitFor = async (check: () => boolean) => {
        for (const deadline = Date.now() + 10_000; !check(); ) {
          if (Date.now() > deadline) throw new Error(`timed out; screen:\n${terminal.screen.text()}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      await waitFor(() => /1 row at \d\d:\d\d:\d\d UTC/.test(terminal.screen.text()));
      expect(terminal.screen.text()).toContain('live · every 0.2 s · Ctrl-C or .stop() to stop');
      await writer.load('points', [{ minute: new Date(Date.UTC(2024, 0, 1, 0, 1)), players: 5 }], {
        key: false,
      });
      await waitFor(() => /2 rows at /.test(terminal.screen.text()));
      expect(chart.rows.map((row) => row.players)).toEqual([1, 5]);
      chart.stop();
      expect(terminal.screen.text()).toContain('stopped');
      expect(() => live({ sql: 'select 1', every: 0.01 })).toThrow(RangeError);
    } finally {
      await Promise.all([reader.close(), writer.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('collects numeric values of the chosen variables, and skips the rest', () => {
    const { live, cloud } = setup();
    const chart = live(cloud, { variables: ['score'] });
    cloud.emit('set', { name: '☁ score', value: '10' });
    cloud.emit('set', { name: '☁ score', value: 'not a number' });
    cloud.emit('set', { name: '☁ other', value: '5' });
    cloud.emit('set', { name: 'score', value: 12 });
    expect(chart.data.map((p) => [p.name, p.value])).toEqual([
      ['score', 10],
      ['score', 12],
    ]);
    chart.stop();
    cloud.emit('set', { name: 'score', value: '13' });
    expect(chart.data).toHaveLength(2);
    expect(cloud.listenerCount('set')).toBe(0);
  });

  it('redraws in place above the prompt, throttled, and waits while an input runs', async () => {
    vi.useFakeTimers();
    const { live, cloud, terminal, activity } = setup();
    const chart = live(cloud, { height: 8 });
    await vi.advanceTimersByTimeAsync(10);
    for (let i = 0; i < 20; i++) {
      cloud.emit('set', { name: 'score', value: String(i) });
      await vi.advanceTimersByTimeAsync(30);
    }
    await vi.advanceTimersByTimeAsync(300);
    let text = terminal.screen.text();
    expect(text.match(/Live: last 1m/g)).toHaveLength(1);
    expect(text).toContain('score · 20 changes · now 19');
    expect(text.split('\n').at(-1)).toBe('scratchlab>');

    const end = activity.begin();
    cloud.emit('set', { name: 'score', value: '99' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(terminal.screen.text()).not.toContain('now 99');
    end();
    text = terminal.screen.text();
    expect(text).toContain('now 99');
    expect(text.match(/Live: last 1m/g)).toHaveLength(1);

    stopLiveCharts();
    expect(chart.running).toBe(false);
    expect(terminal.screen.text()).toMatch(/stopped · 21 points/);
  });

  it('starts afresh below output that came after it', async () => {
    vi.useFakeTimers();
    const { live, cloud, terminal } = setup();
    live(cloud);
    cloud.emit('set', { name: 'n', value: '1' });
    await vi.advanceTimersByTimeAsync(300);
    terminal.write('\nsome output\n');
    terminal.prompt();
    cloud.emit('set', { name: 'n', value: '2' });
    await vi.advanceTimersByTimeAsync(300);
    const text = terminal.screen.text();
    expect(text.indexOf('some output')).toBeGreaterThan(text.indexOf('Live: last'));
    expect(text.lastIndexOf('Live: last')).toBeGreaterThan(text.indexOf('some output'));
  });

  it('stops the previous chart when another starts, and checks its arguments', () => {
    const { live, cloud } = setup();
    const first = live(cloud);
    const second = live(new EventEmitter());
    expect(first.running).toBe(false);
    expect(second.running).toBe(true);
    expect(() => live({} as never)).toThrow(/on\('set', fn\)/);
    expect(() => live(cloud, { window: 0 })).toThrow(RangeError);
  });
});
