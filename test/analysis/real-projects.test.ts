/**
 * `analyzeProject` on every real project we gathered (test/analysis/fixtures/SOURCE.md): the
 * summary equals what the Scratch Team's `scratch-analysis` 2.4.2 answers for the same bytes, and
 * the CT score what Dr. Scratch's analyzer answered (drscratch-mastery.json).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AnalysisError, analyzeProject, CT_DIMENSIONS } from '../../src/index.js';

const require = createRequire(import.meta.url);
type Callback = (
  error: unknown,
  result: Record<string, { count: number; id?: unknown; unique?: number; frequency?: object }>,
) => void;
const scratchAnalysis = require('scratch-analysis') as (input: Buffer, callback: Callback) => void;

const folder = new URL('./fixtures/', import.meta.url);
const names = readdirSync(folder).filter((name) => /__.*\.json(\.gz)?$/.test(name));
const bytesOf = (name: string) => {
  const raw = readFileSync(new URL(name, folder));
  return name.endsWith('.gz') ? gunzipSync(raw) : raw;
};
const drScratch = JSON.parse(readFileSync(new URL('drscratch-mastery.json', folder), 'utf8')) as Record<
  string,
  Record<string, number>
>;

/** scratch-analysis's answer, or its error (it refuses bodies scratch-parser's schema refuses). */
function oracle(bytes: Buffer): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false }> {
  return new Promise((resolve) =>
    scratchAnalysis(bytes, (error, result) => {
      if (error) return resolve({ ok: false });
      resolve({
        ok: true,
        value: {
          scripts: result.scripts!.count,
          blocks: result.blocks!.count,
          uniqueBlocks: result.blocks!.unique,
          sprites: result.sprites!.count,
          variables: result.variables!.count,
          cloudVariables: result.cloud!.count,
          lists: result.lists!.count,
          comments: result.comments!.count,
          costumes: result.costumes!.count,
          sounds: result.sounds!.count,
          extensions: result.extensions!.id,
          opcodes: { ...result.blocks!.frequency },
        },
      });
    }),
  );
}

describe('real projects', () => {
  it('gathers 70 real projects from four repositories', () => {
    expect(names.length).toBe(70);
    expect(Object.keys(drScratch).sort()).toEqual([...names].sort());
  });

  it('counts every one exactly as scratch-analysis does (65 it accepts; the 5 its schema refuses are named)', async () => {
    const refused: string[] = [];
    let compared = 0;
    for (const name of names) {
      const bytes = bytesOf(name);
      const theirs = await oracle(bytes);
      if (!theirs.ok) {
        refused.push(name);
        continue;
      }
      const ours = analyzeProject(bytes.toString('utf8')).summary;
      expect({ name, ...ours }).toEqual({ name, ...theirs.value });
      // The same order of first appearance, so that a table of opcodes reads the same.
      expect(Object.keys(ours.opcodes)).toEqual(Object.keys(theirs.value.opcodes as object));
      compared++;
    }
    expect(compared).toBe(65);
    expect(refused).toEqual([
      'scratch-parser__data_invalid__invalid_comments.json',
      'scratch-parser__data_invalid__invalid_spriteNamed_stage_.json',
      'scratch-parser__data_invalid__invalid_sprite_layer.json',
      'scratch-parser__data_invalid__invalid_stage_layer.json',
      'scratch-vm__demo.json',
    ]);
  });

  it("scores every one as Dr. Scratch's analyzer did", () => {
    for (const name of names) {
      const { ct } = analyzeProject(bytesOf(name).toString('utf8'));
      const dimensions = Object.fromEntries(CT_DIMENSIONS.map((dimension) => [dimension, ct[dimension]]));
      expect({ name, ...dimensions }).toEqual({ name, ...drScratch[name] });
      expect(ct.total).toBe(CT_DIMENSIONS.reduce((sum, dimension) => sum + ct[dimension], 0));
    }
  });

  it('reads the largest (cloud_complex: 4,947 blocks) into scripts, top-level reporters stored as arrays among them', () => {
    const { model, summary, metrics } = analyzeProject(
      bytesOf('scratch-analysis__cloud_complex.json.gz').toString('utf8'),
    );
    expect(summary.blocks).toBe(4947);
    expect(summary.scripts).toBe(283);
    const scripts = model.targets.flatMap((target) => target.scripts);
    // scratch-analysis counts only objects as scripts; the model also has the loose variable reporters.
    expect(scripts.filter((script) => script.top.primitive === null).length).toBe(283);
    expect(
      scripts.filter((script) => script.top.primitive !== null).map((script) => script.top.opcode),
    ).toEqual(Array(6).fill('data_variable'));
    expect(metrics.scripts.length).toBe(289);
    const walked = scripts.reduce((sum, script) => sum + script.blocks.length, 0);
    const orphans = model.targets.reduce((sum, target) => sum + target.orphans.length, 0);
    const stored = model.targets.reduce((sum, target) => sum + target.blocks.size, 0);
    expect({ walked, orphans, stored }).toEqual({ walked: 5164, orphans: 0, stored: 5182 });
  });

  it('names what it cannot read: Scratch 2 bodies and files, Scratch 1 files, archives without project.json', async () => {
    const sb2 = readFileSync(
      new URL('../../node_modules/scratch-analysis/test/fixtures/sb2/default.sb2', import.meta.url),
    );
    expect(() => analyzeProject(new Uint8Array(sb2))).toThrow(
      expect.objectContaining({ name: 'ArchiveError', code: 'scratch2' }),
    );
    const sb2Json = readFileSync(
      new URL('../../node_modules/scratch-analysis/test/fixtures/sb2/default.json', import.meta.url),
      'utf8',
    );
    expect(() => analyzeProject(sb2Json)).toThrow(AnalysisError);
    expect(() => analyzeProject(JSON.parse(sb2Json))).toThrow(expect.objectContaining({ code: 'scratch2' }));
    const sb1 = readFileSync(
      new URL(
        '../../node_modules/scratch-analysis/test/fixtures/sb1/AllBlocks-Scratch1.4.sb',
        import.meta.url,
      ),
    );
    expect(() => analyzeProject(new Uint8Array(sb1))).toThrow(
      expect.objectContaining({ name: 'ArchiveError', code: 'scratch2' }),
    );
  });
});
