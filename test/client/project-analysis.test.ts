/**
 * `projects.analyze` and `analyzeAll` against the sandbox through the real client: the body
 * downloaded through the request budget (a token and a body request a project, no 429), the
 * analysis equal to `analyzeProject` of the downloaded body, progress after each project,
 * failures named or skipped.
 */
import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  type AnalyzeProgress,
  ApiError,
  analysisRows,
  analyzeProject,
} from '../../src/index.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('projects.analyze', () => {
  it('analyses a real fixture project as analyzeProject analyses its downloaded body, in two requests', async () => {
    const session = ctx.anonymous();
    const id = ctx.sandbox.samples.fixtureProjects.cloud_variables_simple!;
    const before = ctx.sandbox.traffic.requests;
    const analysis = await session.projects.analyze(id);
    expect(ctx.sandbox.traffic.requests - before).toBe(2);
    const json = await session.projects.getJson(id);
    const { model: _model, ...expected } = analyzeProject(json);
    const { model, id: analysedId, ...rest } = analysis;
    expect(analysedId).toBe(id);
    expect(rest).toEqual(expected);
    expect(analysis.summary).toMatchObject({ sprites: 1, cloudVariables: 1, costumes: 3, sounds: 2 });
    expect(model.stage?.variables.map((v) => [v.name, v.cloud])).toEqual([['☁ firstCloud', true]]);
  });

  it("analyses a studio's projects with progress, in order, within the budget; their analyses differ", async () => {
    const session = ctx.anonymous();
    const projects = await session.studios.projects(ctx.sandbox.samples.studio).all();
    const ids = projects.map((project) => project.id);
    expect(ids.length).toBeGreaterThan(5);
    const progress: AnalyzeProgress[] = [];
    const limitedBefore = ctx.sandbox.traffic.limited;
    const analyses = await session.projects.analyzeAll(ids, { onProgress: (p) => progress.push(p) });
    expect(analyses.map((a) => a.id)).toEqual(ids);
    expect(progress.map((p) => p.done)).toEqual(ids.map((_, i) => i + 1));
    expect(progress.every((p) => p.total === ids.length && p.error === undefined)).toBe(true);
    expect(ctx.sandbox.traffic.limited).toBe(limitedBefore);
    expect(new Set(analyses.map((a) => a.summary.blocks)).size).toBeGreaterThan(1);
    const { projects: rows, opcodes } = analysisRows(analyses);
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(opcodes.filter((row) => row.project_id === ids[0]).reduce((sum, row) => sum + row.count, 0)).toBe(
      analyses[0]!.summary.blocks,
    );
  });

  it('names what fails: an unshared project (404), and with skipErrors leaves it out and says so', async () => {
    const session = ctx.anonymous();
    const unshared = ctx.sandbox.samples.unsharedProject;
    const shared = ctx.sandbox.samples.fixtureProjects.cloud_variables_simple!;
    await expect(session.projects.analyze(unshared)).rejects.toBeInstanceOf(ApiError);
    await expect(session.projects.analyzeAll([shared, unshared])).rejects.toBeInstanceOf(ApiError);
    const progress: AnalyzeProgress[] = [];
    const analyses = await session.projects.analyzeAll([unshared, shared], {
      skipErrors: true,
      concurrency: 1,
      onProgress: (p) => progress.push(p),
    });
    expect(analyses.map((a) => a.id)).toEqual([shared]);
    expect(progress.map((p) => [p.id, p.error?.name ?? null])).toEqual([
      [unshared, 'ApiError'],
      [shared, null],
    ]);
  });

  it('refuses bad arguments before any request', async () => {
    const session = ctx.anonymous();
    const before = ctx.sandbox.traffic.requests;
    await expect(session.projects.analyze('nope')).rejects.toBeInstanceOf(TypeError);
    await expect(session.projects.analyzeAll('1' as never)).rejects.toBeInstanceOf(TypeError);
    await expect(session.projects.analyzeAll([1], { concurrency: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(session.projects.analyzeAll([1], { onProgress: 3 as never })).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(ctx.sandbox.traffic.requests).toBe(before);
    expect(AnalysisError.name).toBe('AnalysisError');
  });
});
