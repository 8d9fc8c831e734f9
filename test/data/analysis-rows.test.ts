/**
 * Analyses in the store: `analysisRows` of real projects loaded with `store.load`, one row per
 * project keyed by id (a reload updates), the opcodes and smells in tables of their own, and SQL
 * over them answering what the analyses say.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analysisRows, analyzeProject } from '../../src/index.js';
import { useTempStore } from '../support/temp-store.js';

const ctx = useTempStore('scratchlab-analysis-rows-');
const real = (name: string) =>
  JSON.parse(readFileSync(new URL(`../analysis/fixtures/${name}`, import.meta.url), 'utf8'));
const analyses = [
  { id: 1, ...analyzeProject(real('scratch-vm__load-extensions_confirm-load_pen-dolphin-3d.json')) },
  { id: 2, ...analyzeProject(real('turbowarp-vm__execute_tw-zombie-cube-escape-284516654.json')) },
  { id: 3, ...analyzeProject(real('scratch-vm__broadcast_special_chars.json')) },
];

describe('analysis rows in the store', () => {
  it('loads projects, opcodes, scripts and smells, and SQL reads them back', async () => {
    const { store } = ctx;
    const tables = analysisRows(analyses);
    expect(await store.load('analyses', tables.projects)).toMatchObject({ rows: 3 });
    await store.load('opcodes', tables.opcodes);
    await store.load('smells', tables.smells);
    await store.load('scripts', tables.scripts);
    const rows = await store.query<{
      id: number;
      blocks: number;
      ct_total: number;
      ct_level: string;
      extensions: string[];
    }>('select id, blocks, ct_total, ct_level, extensions from analyses order by id');
    expect(rows.map((r) => ({ ...r }))).toEqual(
      analyses.map((a) => ({
        id: a.id,
        blocks: a.summary.blocks,
        ct_total: a.ct.total,
        ct_level: a.ct.level,
        extensions: [...a.summary.extensions],
      })),
    );
    const [sums] = await store.query<{ blocks: number; scripts: number; smells: number }>(
      `select (select sum("count")::INT from opcodes) as blocks, (select count(*)::INT from scripts) as scripts,
              (select count(*)::INT from smells) as smells`,
    );
    expect(sums).toEqual({
      blocks: analyses.reduce((n, a) => n + a.summary.blocks, 0),
      scripts: analyses.reduce((n, a) => n + a.metrics.scripts.length, 0),
      smells: analyses.reduce((n, a) => n + Object.values(a.smells).reduce((m, s) => m + s.length, 0), 0),
    });
    const never = await store.query<{ name: string }>(
      "select name from smells where project_id = 3 and smell = 'messagesNeverReceived' order by name",
    );
    expect(never.map((r) => r.name)).toEqual(['< perfect', 'a&b']);
    // Keyed by id: loading again updates, it adds no copies.
    await store.load('analyses', tables.projects);
    const [count] = await store.query<{ n: number }>('select count(*)::INT as n from analyses');
    expect(count!.n).toBe(3);
  });

  it('refuses what is not a list of analyses', () => {
    expect(() => analysisRows({} as never)).toThrow(TypeError);
    expect(() => analysisRows([{ id: 1 }] as never)).toThrow(/analyses/);
  });
});
