/**
 * The sandbox names and types assets with the client's own rules (`src/project/assets.ts` and
 * `src/project/content-types.ts`), so the two can never disagree about what a valid asset is.
 */
import { describe, expect, it } from 'vitest';
import { isAssetName, md5ext, md5Hex } from '../../src/project/assets.js';
import { contentTypeFor } from '../../src/project/content-types.js';
import { FIXTURE_NAMES, loadFixture } from '../../src/sandbox/fixtures.js';
import { asset, assetPool, distinctCostumes } from '../../src/sandbox/state/project-bodies.js';

describe('contentTypeFor', () => {
  it('knows every asset format Scratch uses', () => {
    const table: [string, string][] = [
      ['png', 'image/png'],
      ['svg', 'image/svg+xml'],
      ['jpg', 'image/jpeg'],
      ['jpeg', 'image/jpeg'],
      ['gif', 'image/gif'],
      ['bmp', 'image/bmp'],
      ['wav', 'audio/x-wav'],
      ['mp3', 'audio/mpeg'],
    ];
    for (const [extension, type] of table) {
      expect(contentTypeFor(extension), extension).toBe(type);
      expect(contentTypeFor(`.${extension}`), extension).toBe(type);
      expect(contentTypeFor(extension.toUpperCase()), extension).toBe(type);
      expect(contentTypeFor(`${'a'.repeat(32)}.${extension}`), extension).toBe(type);
    }
  });

  it('answers bytes for anything else', () => {
    for (const other of ['json', 'exe', '', 'png.txt', `${'0'.repeat(32)}.ttf`, 'constructor', '__proto__']) {
      expect(contentTypeFor(other), other).toBe('application/octet-stream');
    }
  });
});

describe('sandbox assets follow the client naming rules', () => {
  it('names generated assets exactly as md5ext does', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    const bytes = new TextEncoder().encode(svg);
    const made = asset(svg, 'svg');
    expect(made.md5ext).toBe(md5ext(bytes, 'svg'));
    expect(made.assetId).toBe(md5Hex(bytes));
    expect(made.dataFormat).toBe('svg');
    const pool = assetPool(asset('pop', 'wav'));
    for (const a of [...pool.backdrops, ...pool.costumes, ...distinctCostumes(30)]) {
      expect(isAssetName(a.md5ext), a.md5ext).toBe(true);
      expect(a.md5ext).toBe(md5ext(a.bytes, a.dataFormat));
    }
  });

  it('refuses to name an asset with an extension the client would refuse', () => {
    expect(() => asset('x', 'toolongext')).toThrow(RangeError);
    expect(() => asset('x', 's/v/g')).toThrow(RangeError);
  });

  it('loads fixtures whose every file is a valid, matching asset name', async () => {
    for (const name of FIXTURE_NAMES) {
      const fixture = await loadFixture(name);
      expect(fixture.assets.size).toBeGreaterThan(0);
      for (const [file, bytes] of fixture.assets) {
        expect(isAssetName(file), file).toBe(true);
        expect(file.startsWith(md5Hex(bytes))).toBe(true);
      }
    }
  });
});
