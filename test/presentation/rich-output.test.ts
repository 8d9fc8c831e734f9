// md, html, svg and image (src/presentation/rich-output.ts): the MIME bundle a notebook shows, the
// text a terminal shows, and clear errors for what they cannot take.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  html,
  image,
  JUPYTER_DISPLAY,
  MAX_IMAGE_BYTES,
  md,
  REPL_DISPLAY,
  svg,
} from '../../src/presentation/index.js';
import { answerInWorker } from '../support/bounded-worker.js';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('rich outputs', () => {
  it('md and html carry their text as their MIME type, with the values put in', () => {
    const title = 'Scores';
    const note = md`# ${title}\n${3} runs`;
    expect(note[JUPYTER_DISPLAY]()).toEqual({
      'text/markdown': '# Scores\n3 runs',
      'text/plain': '# Scores\n3 runs',
    });
    expect(note[REPL_DISPLAY]()).toBe('# Scores\n3 runs');
    expect(html`<b>${'bold'}</b>`[JUPYTER_DISPLAY]()['text/html']).toBe('<b>bold</b>');
    expect(md('plain *text*').data).toBe('plain *text*');
  });

  it('svg takes an <svg> element, and a terminal shows a note', () => {
    const drawing = svg`<svg xmlns="http://www.w3.org/2000/svg" width="${4}" height="4"/>`;
    expect(drawing.mime).toBe('image/svg+xml');
    expect(drawing.data).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
    expect(drawing[REPL_DISPLAY]()).toBe('[SVG image, 62 characters]');
    expect(() => svg`<div></div>`).toThrow(TypeError);
  });

  it('image knows PNG bytes and files, and SVG text, by their content', () => {
    expect(image(PNG)[JUPYTER_DISPLAY]()).toEqual({
      'image/png': PNG.toString('base64'),
      'text/plain': '[PNG image, 70 bytes]',
    });
    const folder = mkdtempSync(join(tmpdir(), 'rich-output-'));
    const file = join(folder, 'dot.png');
    writeFileSync(file, PNG);
    expect(image(file).text).toBe(`[PNG image, 70 bytes from ${file}]`);
    expect(image(new TextEncoder().encode('<svg/>')).mime).toBe('image/svg+xml');
    expect(image(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])).mime).toBe('image/jpeg');
  });

  it('refuses what it cannot show, with a clear error', async () => {
    expect(() => image(new Uint8Array([1, 2, 3]))).toThrow(/not a PNG, JPEG, GIF, WebP or SVG image/);
    expect(() => image(42 as unknown as string)).toThrow(TypeError);
    expect(() => image(new Uint8Array(MAX_IMAGE_BYTES + 1))).toThrow(RangeError);
    expect(() => image(join(tmpdir(), 'no-such-image.png'))).toThrow(/ENOENT/);
    expect(() => image(join(tmpdir(), 'no-such-image.png'))).toThrow(TypeError);
    // Files that never end or are not files: refused, not read.
    expect(() => image('/dev/zero')).toThrow(/is not a file/);
    expect(() => image(tmpdir())).toThrow(/is not a file/);
    // Text of many comments and no <svg>: refused (a backtracking pattern took hours). In a worker:
    // a pattern that backtracked would be stopped there, failing the test.
    const presentation = join(import.meta.dirname, '../../dist/presentation/index.js');
    expect(
      await answerInWorker(
        presentation,
        'return m.svg(args[0]);',
        ['<!---->'.repeat(60)],
        'svg() of 60 comments',
      ),
    ).toEqual({ error: 'svg: the text must be an <svg> element' });
    const refused = await answerInWorker(
      presentation,
      'return m.image(new TextEncoder().encode(args[0]));',
      [`${'<!---->'.repeat(60)}x`],
      'image() of 60 comments',
    );
    expect(refused).toEqual({ error: expect.stringMatching(/not a PNG/) });
    expect(svg('<?xml version="1.0"?>\n<!-- a --> <!-- b -->\n<svg width="1"/>').mime).toBe('image/svg+xml');
    expect(() => md(42 as unknown as string)).toThrow(TypeError);
    expect(() => md('a', 'b')).toThrow(TypeError);
  });
});
