/**
 * `.sb3` reading as the platform's parser reads real files, and what it reports: archives built
 * in the test (folder-wrapped, macOS junk, truncated, bzip2, Scratch 2, traversal names, missing
 * and mismatched assets, TurboWarp fonts, zip bombs), plus the real fixtures.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ArchiveError,
  loadSb3,
  md5ext,
  projectAssetNames,
  readSb3,
  repairProject,
  saveSb3,
  writeSb3,
} from '../../src/index.js';
import { unzip } from '../../src/project/zip.js';
import { JsonDepthError } from '../../src/records/json.js';
import { buildZip, type ZipEntrySpec } from '../support/build-zip.js';
import { bundleChild } from '../support/bundle-child.js';
import { toolPath } from '../support/tools.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../src/sandbox/fixtures/${name}`, import.meta.url)));

const svgA = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>');
const svgB = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><circle/></svg>');
const wav = new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4]);
const font = new Uint8Array([0, 1, 0, 0, 0, 9, 8, 7, 6]);
const nameA = md5ext(svgA, 'svg');
const nameB = md5ext(svgB, 'svg');
const nameWav = md5ext(wav, 'wav');
const nameFont = md5ext(font, 'ttf');

/** A small Scratch 3 body naming the given costume and sound files. */
function body(costumes: string[], sounds: string[] = [], extra: Record<string, unknown> = {}) {
  return {
    targets: [
      {
        isStage: true,
        name: 'Stage',
        costumes: costumes.map((file, i) => ({
          name: `c${i}`,
          assetId: file.slice(0, 32),
          md5ext: file,
          dataFormat: file.slice(33),
        })),
        sounds: sounds.map((file, i) => ({
          name: `s${i}`,
          assetId: file.slice(0, 32),
          dataFormat: file.slice(33),
        })),
      },
    ],
    monitors: [],
    extensions: [],
    meta: { semver: '3.0.0' },
    ...extra,
  };
}

const sb3 = (json: unknown, files: ZipEntrySpec[], folder = '') =>
  buildZip([{ name: `${folder}project.json`, data: JSON.stringify(json) }, ...files]);

function archiveError(run: () => unknown): ArchiveError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ArchiveError);
    expect(error).toBeInstanceOf(RangeError);
    return error as ArchiveError;
  }
  throw new Error('expected an ArchiveError');
}

describe('readSb3: files as real editors and tools write them', () => {
  it('accepts project.json inside one top-level folder, assets named relative to it', () => {
    const bytes = sb3(
      body([nameA]),
      [
        { name: 'My Project/', data: '', method: 0 },
        { name: `My Project/${nameA}`, data: svgA },
      ],
      'My Project/',
    );
    const project = readSb3(bytes);
    expect(project.json.targets[0]!.name).toBe('Stage');
    expect([...project.assets.keys()]).toEqual([nameA]);
    expect(project.assets.get(nameA)).toEqual(svgA);
    expect(project.problems).toEqual([]);
  });

  it('keeps other files as data, reported as not assets, and writes them back', () => {
    const bytes = sb3(body([nameA]), [
      { name: nameA, data: svgA },
      { name: 'notes/readme.txt', data: 'hello' },
    ]);
    const project = readSb3(bytes);
    expect(project.problems).toMatchObject([{ kind: 'not-an-asset', name: 'notes/readme.txt' }]);
    expect(readSb3(writeSb3(project)).assets.get('notes/readme.txt')).toEqual(
      new TextEncoder().encode('hello'),
    );
  });

  it('refuses two projects side by side', () => {
    const bytes = buildZip([
      { name: 'a/project.json', data: JSON.stringify(body([])) },
      { name: 'b/project.json', data: JSON.stringify(body([])) },
    ]);
    expect(archiveError(() => readSb3(bytes)).code).toBe('no-project-json');
  });

  it('skips macOS junk (__MACOSX, ._*, .DS_Store) instead of keeping it as assets', () => {
    const bytes = sb3(body([nameA]), [
      { name: nameA, data: svgA },
      { name: '__MACOSX/', data: '', method: 0 },
      { name: `__MACOSX/._${nameA}`, data: 'resource fork' },
      { name: '__MACOSX/._project.json', data: 'resource fork' },
      { name: `._${nameA}`, data: 'apple double' },
      { name: '.DS_Store', data: 'finder' },
    ]);
    const project = readSb3(bytes);
    expect([...project.assets.keys()]).toEqual([nameA]);
    expect(project.problems).toEqual([]);
  });

  it('reports every asset whose bytes do not match its name, and repair renames them', () => {
    const wrongA = `${'a'.repeat(32)}.svg`;
    const wrongWav = `${'b'.repeat(32)}.wav`;
    const bytes = sb3(body([wrongA, nameB], [wrongWav]), [
      { name: wrongA, data: svgA },
      { name: nameB, data: svgB },
      { name: wrongWav, data: wav },
    ]);
    const project = readSb3(bytes);
    expect(project.problems).toEqual([
      {
        kind: 'md5-mismatch',
        name: wrongA,
        actualName: nameA,
        message: `asset ${wrongA} does not match its bytes: they are ${nameA}`,
      },
      {
        kind: 'md5-mismatch',
        name: wrongWav,
        actualName: nameWav,
        message: `asset ${wrongWav} does not match its bytes: they are ${nameWav}`,
      },
    ]);
    const repaired = repairProject(project);
    expect([...repaired.renamed]).toEqual([
      [wrongA, nameA],
      [wrongWav, nameWav],
    ]);
    expect([...repaired.assets.keys()]).toEqual([nameA, nameB, nameWav]);
    const stage = repaired.json.targets[0]!;
    expect(stage.costumes!.map((c) => [c.md5ext, c.assetId])).toEqual([
      [nameA, nameA.slice(0, 32)],
      [nameB, nameB.slice(0, 32)],
    ]);
    expect(stage.sounds![0]!.assetId).toBe(nameWav.slice(0, 32));
    // The input is left alone, and the repaired project reads back clean.
    expect(project.json.targets[0]!.costumes![0]!.md5ext).toBe(wrongA);
    expect(readSb3(writeSb3(repaired)).problems).toEqual([]);
  });

  it('reports an asset the body names but the file lacks, with who uses it', () => {
    const bytes = sb3(body([nameA, nameB]), [{ name: nameA, data: svgA }]);
    const project = readSb3(bytes);
    expect(project.problems).toEqual([
      {
        kind: 'missing-asset',
        name: nameB,
        usedBy: ['Stage'],
        message: `asset ${nameB} (used by Stage) is missing from the files`,
      },
    ]);
    expect([...project.assets.keys()]).toEqual([nameA]);
  });

  it("treats TurboWarp's custom fonts as assets: named, read, reported when missing, written", () => {
    const fonts = [
      { system: false, family: 'Comic', fallback: 'sans-serif', md5ext: nameFont },
      { system: true, family: 'Arial', fallback: 'sans-serif' },
    ];
    const json = body([nameA], [], { customFonts: fonts });
    expect(projectAssetNames(json)).toEqual([nameA, nameFont]);
    const project = readSb3(
      sb3(json, [
        { name: nameA, data: svgA },
        { name: nameFont, data: font },
      ]),
    );
    expect(project.problems).toEqual([]);
    expect(project.assets.get(nameFont)).toEqual(font);
    const again = readSb3(writeSb3(project));
    expect(again.assets.get(nameFont)).toEqual(font);
    expect(again.json.customFonts).toEqual(fonts);

    const missing = readSb3(sb3(json, [{ name: nameA, data: svgA }]));
    expect(missing.problems).toMatchObject([
      { kind: 'missing-asset', name: nameFont, usedBy: ['customFonts'] },
    ]);
  });

  it('keeps an entry named __proto__ as data and reports it as not an asset', () => {
    const project = readSb3(
      sb3(body([nameA]), [
        { name: nameA, data: svgA },
        { name: '__proto__', data: 'x' },
      ]),
    );
    expect(project.assets.get('__proto__')).toEqual(new TextEncoder().encode('x'));
    expect(project.problems).toMatchObject([{ kind: 'not-an-asset', name: '__proto__' }]);
    expect(Object.keys(unzip(sb3(body([]), [{ name: '__proto__', data: 'x' }])))).toContain('__proto__');
    expect([...repairProject(project).assets.keys()]).toEqual([nameA]);
  });
});

describe('readSb3: files it cannot use say why', () => {
  it('a Scratch 2 project (.sb2) says so and where the converter lives', () => {
    const sb2 = buildZip([
      { name: 'project.json', data: JSON.stringify({ objName: 'Stage', children: [], costumes: [] }) },
      { name: '0.png', data: 'png' },
    ]);
    const error = archiveError(() => readSb3(sb2));
    expect(error.code).toBe('scratch2');
    expect(error.message).toMatch(/Scratch 2 project \(\.sb2\)/);
    expect(error.message).toMatch(/sb2\.js/);
    const sb = new TextEncoder().encode('ScratchV02\0\0\0\x01 and the rest of a Scratch 1.4 file');
    expect(archiveError(() => readSb3(sb)).message).toMatch(/Scratch 1\.x project \(\.sb\)/);
  });

  it('an entry compressed with bzip2 (method 12) says so', () => {
    const bytes = sb3(body([nameA]), [{ name: nameA, data: 'BZh91AY&SY not really', method: 12 }]);
    const error = archiveError(() => readSb3(bytes));
    expect(error.code).toBe('unsupported-compression');
    expect(error.entry).toBe(nameA);
    expect(error.message).toMatch(/bzip2 \(compression method 12\)/);
  });

  it('a truncated archive (central directory cut) is an error, not an empty project', () => {
    const whole = fixture('monitored_variables.sb3');
    const cut = whole.subarray(0, whole.length - 200);
    expect(archiveError(() => readSb3(cut)).code).toBe('truncated');
    expect(archiveError(() => readSb3(whole.subarray(0, 1000))).code).toBe('truncated');
    expect(archiveError(() => readSb3(new TextEncoder().encode('hello'))).code).toBe('not-zip');
  });

  it('refuses entry names with .., absolute paths, drive letters or backslashes', () => {
    for (const name of ['../evil.svg', 'assets/../../evil.svg', '/etc/evil.svg', 'C:/evil.svg', 'a\\b.svg']) {
      const error = archiveError(() => readSb3(sb3(body([]), [{ name, data: svgA }])));
      expect(error.code, name).toBe('unsafe-name');
      expect(error.entry).toBe(name);
    }
    // Never written out either.
    for (const name of ['../evil.svg', 'a\\b.svg', '/abs.svg', 'project.json']) {
      expect(() => writeSb3({ json: body([]), assets: new Map([[name, svgA]]) }), name).toThrow(RangeError);
    }
  });

  it('a damaged entry fails its CRC check', () => {
    const bytes = sb3(body([nameA]), [{ name: nameA, data: svgA, method: 0 }]);
    const at = Buffer.from(bytes).indexOf(Buffer.from(svgA));
    bytes[at + 5] ^= 0xff;
    expect(archiveError(() => readSb3(bytes)).code).toBe('corrupt');
  });

  it('a project.json nested too deep is refused, and writeSb3 refuses a too-deep body', () => {
    const deep = `{"targets":[],"x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const error = archiveError(() => readSb3(buildZip([{ name: 'project.json', data: deep }])));
    expect(error.code).toBe('bad-project-json');
    expect(error.message).toMatch(/nested deeper than 1000 levels/);

    let value: unknown = 1;
    for (let i = 0; i < 200_000; i++) value = [value];
    expect(() => writeSb3({ json: { targets: [], deep: value }, assets: new Map() })).toThrow(JsonDepthError);
  });
});

describe('readSb3 limits: checked from the headers, enforced while inflating', () => {
  it('refuses an entry declaring more than maxEntryBytes before inflating it', () => {
    // The header says 1 GiB; the data is a few bytes that are never inflated.
    const bomb = sb3(body([nameA]), [{ name: nameA, data: svgA, declaredSize: 1024 ** 3 }]);
    const error = archiveError(() => readSb3(bomb));
    expect(error.code).toBe('limit');
    expect(error.message).toMatch(
      /1073741824 bytes uncompressed, more than the limit of 33554432 \(maxEntryBytes\)/,
    );
  });

  it('stops inflating an entry whose header lies about its size', () => {
    const zeros = new Uint8Array(64 * 1024 * 1024);
    const liar = buildZip([
      { name: 'project.json', data: JSON.stringify(body([])) },
      { name: nameA, data: zeros, declaredSize: 1000 },
    ]);
    // The deflate stream really holds 64 MiB of zeros, in about 64 KiB.
    expect(liar.length).toBeLessThan(200_000);
    const error = archiveError(() => readSb3(liar));
    expect(error.code).toBe('limit');
    expect(error.message).toMatch(/inflates past the 1000 bytes its header declares/);
  });

  it('limits entry count and total size, settable per call', () => {
    const files = Array.from({ length: 20 }, (_, i) => ({ name: `f${i}.txt`, data: 'x'.repeat(1000) }));
    const bytes = sb3(body([]), files);
    expect(readSb3(bytes).assets.size).toBe(20);
    expect(archiveError(() => readSb3(bytes, { maxEntries: 10 })).message).toMatch(
      /21 entries, more than the limit of 10 \(maxEntries\)/,
    );
    expect(archiveError(() => readSb3(bytes, { maxTotalBytes: 10_000 })).message).toMatch(
      /\(maxTotalBytes\)/,
    );
    expect(archiveError(() => readSb3(bytes, { maxEntryBytes: 999 })).entry).toBe('f0.txt');
    expect(() => readSb3(bytes, { maxEntries: 0 })).toThrow(/maxEntries must be a positive integer/);
  });

  it('refuses an archive whose entries together declare more than maxTotalBytes', () => {
    // 40 entries of 16 MiB each declared: 640 MiB, past the 512 MiB default; none is inflated.
    const entries = Array.from({ length: 40 }, (_, i) => ({
      name: `${i}.bin`,
      data: '',
      declaredSize: 16 * 1024 * 1024,
    }));
    expect(archiveError(() => readSb3(sb3(body([]), entries))).message).toMatch(
      /more than the limit of 536870912 \(maxTotalBytes\)/,
    );
  });
});

describe('the real fixtures', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scratchlab-sb3-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('read clean, round-trip, and load from disk with limits', async () => {
    for (const name of ['cloud_variables_simple.sb3', 'monitored_variables.sb3']) {
      const project = readSb3(fixture(name));
      expect(project.problems).toEqual([]);
      expect(project.assets.size).toBeGreaterThan(0);
      // Bytes after the end record (padding some tools add) are tolerated, as JSZip does.
      const padded = new Uint8Array([...fixture(name), ...new Uint8Array(100)]);
      expect(readSb3(padded).json).toEqual(project.json);
      const again = readSb3(writeSb3(project));
      expect(again.json).toEqual(project.json);
      expect([...again.assets.keys()]).toEqual([...project.assets.keys()]);
      const path = join(dir, name);
      await writeFile(path, fixture(name));
      expect((await loadSb3(path)).json).toEqual(project.json);
      await expect(loadSb3(path, { maxTotalBytes: 100, maxEntries: 1 })).rejects.toThrow(/maxTotalBytes/);
    }
  });

  it('saveSb3 replaces a file whole: a save killed mid-write leaves the old project', async () => {
    const path = join(dir, 'kept.sb3');
    const old = readSb3(fixture('monitored_variables.sb3'));
    await saveSb3(path, old);
    const child = await bundleChild('sb3-save-child', dir);
    // 64 blocks of 512 bytes: the child's ~256 KiB archive passes it, and the kernel kills the
    // child part way through the write (SIGXFSZ), as a crash would.
    const run = spawnSync(
      toolPath('bash'),
      ['-c', 'ulimit -f 64 && exec "$0" "$1" "$2"', process.execPath, child, path],
      {
        // fflate is required at run time (not bundled): the child finds it in this package's node_modules.
        env: { ...process.env, NODE_PATH: fileURLToPath(new URL('../../node_modules', import.meta.url)) },
      },
    );
    expect(run.signal).toBe('SIGXFSZ');
    expect((await loadSb3(path)).json).toEqual(old.json);
  });
});
