/**
 * The sandbox's generated projects carry real, varied scripts: every body is a Scratch 3 project
 * by scratch-parser's schema (the Scratch Team's own validator), and their analyses differ as a
 * studio's real projects do.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../../src/index.js';
import { seedStore } from '../../src/sandbox/seed/seed.js';

const require = createRequire(import.meta.url);
const parse = require('scratch-parser') as (
  input: Buffer,
  isSprite: boolean,
  callback: (error: unknown, result: [{ projectVersion: number }, unknown]) => void,
) => void;

const validate = (body: string) =>
  new Promise<number>((resolve, reject) =>
    parse(Buffer.from(body), false, (error, result) =>
      error ? reject(error) : resolve(result[0].projectVersion),
    ),
  );

describe('generated project bodies', () => {
  it('are all Scratch 3 projects by scratch-parser, with scripts whose analyses differ', async () => {
    const { store } = await seedStore(1);
    const bodies = [...store.projects.values()].map((row) => row.body);
    expect(bodies.length).toBeGreaterThan(100);
    const versions = await Promise.all(bodies.map(validate));
    expect(new Set(versions)).toEqual(new Set([3]));
    const analyses = bodies.map((body) => analyzeProject(body));
    const levels = new Set(analyses.map((a) => a.ct.level));
    const totals = new Set(analyses.map((a) => a.ct.total));
    const sizes = new Set(analyses.map((a) => a.summary.blocks));
    expect({ levels: [...levels].sort(), totals: totals.size > 8, sizes: sizes.size > 20 }).toEqual({
      levels: ['basic', 'developing', 'proficiency'],
      totals: true,
      sizes: true,
    });
    // Smells real projects have: dead code, unused variables, default names, messages never sent.
    const some = (smell: keyof (typeof analyses)[number]['smells']) =>
      analyses.some((a) => a.smells[smell].length > 0);
    expect(
      ['deadCode', 'unusedVariables', 'defaultSpriteNames', 'duplicatedScripts'].filter(
        (s) => !some(s as never),
      ),
    ).toEqual([]);
  });
});
