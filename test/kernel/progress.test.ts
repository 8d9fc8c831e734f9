// The kernel's progress output in-process (no Jupyter): what it sends to the notebook, in place
// of tslab's iopub writer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProgressDisplay } from '../../kernel/display/progress.js';
import { type DisplayMessage, jupyter } from '../../kernel/tslab.js';

function captureDisplays(): { text: string; update: boolean; id: string | undefined }[] {
  const sent: { text: string; update: boolean; id: string | undefined }[] = [];
  jupyter.lastWriteDisplayData = (message: DisplayMessage, update: boolean) => {
    sent.push({ text: String(message.data['text/plain']), update, id: message.transient.display_id });
  };
  return sent;
}

afterEach(() => {
  jupyter.lastWriteDisplayData = null;
  vi.useRealTimers();
});

describe('ProgressDisplay', () => {
  it('shows nothing for a quick call, then one output updated in place, kept with a summary', () => {
    vi.useFakeTimers();
    const sent = captureDisplays();
    const display = new ProgressDisplay('all pages', { delay: 300, interval: 0 });
    display.update({ items: 40, pages: 1, done: false });
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(300);
    display.update({ items: 1240, pages: 31, done: false });
    display.finish();
    expect(sent.map((m) => m.update)).toEqual([false, true, true]);
    expect(new Set(sent.map((m) => m.id)).size).toBe(1);
    expect(sent[1]!.text).toMatch(/^all pages: 1,240 rows · 31 pages · [\d.]+ s$/);
    expect(sent[2]!.text).toMatch(/^all pages: 1,240 rows · 31 pages · [\d.]+ s \(done\)$/);
    const quick = new ProgressDisplay('all pages');
    quick.update({ items: 3, pages: 1, done: true });
    quick.finish();
    expect(sent).toHaveLength(3);
  });

  it('says at once when the service makes the call wait, and counts down', () => {
    vi.useFakeTimers();
    const sent = captureDisplays();
    const display = new ProgressDisplay('download 7', { delay: 5000 });
    display.update({ done: 12, total: 100, bytes: 3 * 1024 * 1024 });
    display.update({
      done: 12,
      total: 100,
      bytes: 3 * 1024 * 1024,
      rateLimited: { resumeInMs: 2100, status: 429, message: 'rate-limited, resuming in 2.1 s' },
    });
    expect(sent.at(-1)!.text).toMatch(
      /^download 7: 12\/100 assets · 3\.0 MB · [\d.]+ s · rate-limited, resuming in 2\.1 s$/,
    );
    vi.advanceTimersByTime(1000);
    expect(sent.at(-1)!.text).toMatch(/rate-limited, resuming in 1\.1 s$/);
    vi.advanceTimersByTime(1500);
    expect(sent.at(-1)!.text).not.toContain('rate-limited');
    display.finish();
  });
});
