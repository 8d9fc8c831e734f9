import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishProgressBars, ProgressBar, withProgress } from '../../repl/display/progress.js';

class FakeStderr {
  isTTY = true;
  columns = 80;
  written = '';
  write(text: string): boolean {
    this.written += text;
    return true;
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ProgressBar', () => {
  it('draws a bar for transfers once the delay is over, and erases itself at the end', () => {
    vi.useFakeTimers();
    const stream = new FakeStderr();
    const bar = new ProgressBar('download 7', { stream, delay: 100, interval: 0 });
    bar.update({ done: 0, total: 4, bytes: 0 });
    expect(stream.written).toBe(''); // quick operations print nothing
    vi.advanceTimersByTime(100);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the bar starts by erasing the line.
    expect(stream.written).toMatch(/^\r\x1b\[Kdownload 7 ░{24} 0\/4 assets · 0 B · [\d.]+s$/);
    bar.update({ done: 2, total: 4, bytes: 3 * 1024 * 1024 });
    expect(stream.written).toMatch(/download 7 █{12}░{12} 2\/4 assets · 3\.0 MB/);
    bar.update({ done: 4, total: 4, bytes: 4 * 1024 * 1024 });
    expect(stream.written.endsWith('\r\x1b[K')).toBe(true);
    const length = stream.written.length;
    bar.update({ done: 4, total: 4, bytes: 0 });
    expect(stream.written.length).toBe(length);
  });

  it('counts rows and pages for walks, which have no total', () => {
    const stream = new FakeStderr();
    const onProgress = withProgress('followers', { stream, delay: 0, interval: 0 });
    onProgress({ items: 40, pages: 1, done: false });
    onProgress({ items: 1240, pages: 31, done: false });
    expect(stream.written).toMatch(/followers \S 1,240 rows · 31 pages · [\d.]+s$/);
    onProgress({ items: 1250, pages: 32, done: true });
    expect(stream.written.endsWith('\r\x1b[K')).toBe(true);
  });

  it('says when the service makes the work wait, and counts down to the resume', () => {
    vi.useFakeTimers();
    const stream = new FakeStderr();
    const onProgress = withProgress('followers', { stream, delay: 1000, interval: 0 });
    onProgress({ items: 80, pages: 2, done: false });
    expect(stream.written).toBe('');
    // A pause shows at once, before the bar's own delay.
    onProgress({
      items: 80,
      pages: 2,
      done: false,
      rateLimited: { resumeInMs: 2100, status: 429, message: 'rate-limited, resuming in 2.1 s' },
    });
    expect(stream.written).toMatch(
      /followers \S 80 rows · 2 pages · [\d.]+s · rate-limited, resuming in 2\.1 s$/,
    );
    vi.advanceTimersByTime(1000);
    expect(stream.written).toMatch(/rate-limited, resuming in 1\.1 s$/);
    vi.advanceTimersByTime(1200);
    expect(stream.written).not.toMatch(/resuming in [\d.]+ s$/);
    onProgress({ items: 120, pages: 3, done: false });
    expect(stream.written).toMatch(/followers \S 120 rows · 3 pages · [\d.]+s$/);
    onProgress({ items: 120, pages: 3, done: true });
    expect(stream.written.endsWith('\r\x1b[K')).toBe(true);
  });

  it('draws nothing when stderr is not a terminal', () => {
    const stream = new FakeStderr();
    stream.isTTY = false;
    const bar = new ProgressBar('x', { stream, delay: 0 });
    bar.update({ done: 1, total: 3, bytes: 10 });
    expect(stream.written).toBe('');
  });

  it('fits the line to the terminal width', () => {
    const bar = new ProgressBar('a very long label '.repeat(10), { delay: 0, stream: new FakeStderr() });
    bar.update({ done: 1, total: 3, bytes: 10 });
    expect(bar.text(40).length).toBeLessThanOrEqual(39);
  });

  it('can all be erased at once, e.g. when an input fails half way', () => {
    const stream = new FakeStderr();
    const bar = new ProgressBar('x', { stream, delay: 0, interval: 0 });
    bar.update({ done: 1, total: 3, bytes: 10 });
    finishProgressBars();
    expect(stream.written.endsWith('\r\x1b[K')).toBe(true);
  });
});
