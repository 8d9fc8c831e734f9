/**
 * The block-level model on what real projects contain (primitives stored as arrays, shadows,
 * top-level reporters, loose comments, custom blocks, broadcasts), and the named errors of its
 * bounded walks: cycles, missing blocks, nesting and size past the limits, bodies of the wrong shape.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnalysisError, analyzeProject, readProjectModel, readSb3, writeSb3 } from '../../src/index.js';
import { buildZip } from '../support/build-zip.js';
import { buildProject, projectOf } from '../support/project-builder.js';

const real = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const flag = 'event_whenflagclicked';

describe('the model', () => {
  it('reads primitives stored as arrays, in inputs and at the top level (scratch-analysis fixture)', () => {
    const model = readProjectModel(real('scratch-analysis__primitiveVariableAndListBlocks.json'));
    const sprite = model.sprites[0]!;
    const loose = sprite.scripts.map((script) => [
      script.top.opcode,
      script.top.primitive?.value,
      script.top.fields,
    ]);
    expect(loose).toEqual([
      ['data_listcontents', 'my_list', { LIST: { value: 'my_list', id: 'HewanSoehucCjFovU@^H' } }],
      ['data_variable', 'my_variable', { VARIABLE: { value: 'my_variable', id: 'T1[{JjfXy_y{K@EQkA?1' } }],
    ]);
    // A block whose parent is gone is reached by no script: an orphan, with its input's primitive.
    expect(sprite.orphans.map((block) => block.opcode)).toEqual(['motion_changexby']);
    expect(sprite.orphans[0]!.inputs).toEqual([
      {
        name: 'DX',
        value: {
          primitive: { type: 12, opcode: 'data_variable', value: 'my_variable', id: 'T1[{JjfXy_y{K@EQkA?1' },
        },
        obscured: { primitive: { type: 4, opcode: 'math_number', value: '10' } },
      },
    ]);
  });

  it('reads top-level reporters as scripts under no hat (scratch-vm top-level-reporters)', () => {
    const { model, smells } = analyzeProject(real('scratch-vm__top-level-reporters.json'));
    const scripts = model.targets.flatMap((target) => target.scripts);
    expect(scripts.map((script) => [script.top.opcode, script.hat, script.blockCount])).toEqual([
      ['motion_xposition', false, 1],
      ['looks_size', false, 1],
    ]);
    expect(smells.deadCode.map((site) => site.name)).toEqual(['motion_xposition', 'looks_size']);
  });

  it('reads comments, on blocks and on nothing (scratch-vm comments)', () => {
    const model = readProjectModel(real('scratch-vm__comments.json'));
    const comments = model.targets.flatMap((target) =>
      target.comments.map((comment) => [
        target.name,
        target.blocks.get(comment.blockId ?? '')?.opcode ?? null,
        comment.text.slice(0, 2),
      ]),
    );
    expect(comments).toEqual([
      ['Stage', null, 'A '],
      ['Sprite1', 'event_whenflagclicked', '1.'],
      ['Sprite1', 'motion_turnright', '2.'],
      ['Sprite1', 'control_repeat', '3.'],
      ['Sprite1', 'looks_changeeffectby', '4.'],
      ['Sprite1', 'control_stop', '5.'],
      ['Sprite1', null, 'Th'],
    ]);
  });

  it('builds each script as a tree: the stack, the mouths of C-blocks, reporters in slots, shadows', () => {
    const project = projectOf([
      flag,
      {
        op: 'control_repeat',
        inputs: {
          TIMES: [6, '10'],
          SUBSTACK: [
            'motion_movesteps',
            { op: 'control_if', inputs: { CONDITION: 'sensing_mousedown', SUBSTACK: ['looks_show'] } },
          ],
        },
      },
      'looks_hide',
    ]);
    const [script] = readProjectModel(project).sprites[0]!.scripts;
    expect(script!.stack.map((node) => node.block.opcode)).toEqual([flag, 'control_repeat', 'looks_hide']);
    const repeat = script!.stack[1]!;
    expect(
      repeat.inputs.map((input) => [
        input.name,
        input.primitive?.value ?? null,
        input.value.map((n) => n.block.opcode),
      ]),
    ).toEqual([
      ['TIMES', '10', []],
      ['SUBSTACK', null, ['motion_movesteps', 'control_if']],
    ]);
    const ifBlock = repeat.inputs[1]!.value[1]!;
    expect(ifBlock.inputs.map((input) => input.value.map((n) => n.block.opcode))).toEqual([
      ['sensing_mousedown'],
      ['looks_show'],
    ]);
    expect(script!.nesting).toBe(2);
    expect(script!.blockCount).toBe(7);
    expect(script!.blocks.map((block) => block.category)).toEqual([
      'event',
      'control',
      'looks',
      'motion',
      'control',
      'looks',
      'sensing',
    ]);
  });
});

describe('named errors', () => {
  const withBlocks = (blocks: Record<string, unknown>) => buildProject({}, [{ name: 'Cat', blocks }]);
  const block = (opcode: string, extra: Record<string, unknown> = {}) => ({
    opcode,
    next: null,
    parent: null,
    inputs: {},
    fields: {},
    shadow: false,
    topLevel: false,
    ...extra,
  });

  it('a cycle of next links', () => {
    const project = withBlocks({
      a: block(flag, { topLevel: true, next: 'b' }),
      b: block('looks_show', { parent: 'a', next: 'a' }),
    });
    expect(() => analyzeProject(project)).toThrow(
      expect.objectContaining({ name: 'AnalysisError', code: 'cycle', target: 'Cat', block: 'a' }),
    );
  });

  it('a block that is its own input, and a block with two parents', () => {
    const self = withBlocks({
      a: block('control_forever', { topLevel: true, inputs: { SUBSTACK: [2, 'a'] } }),
    });
    expect(() => analyzeProject(self)).toThrow(expect.objectContaining({ code: 'cycle' }));
    const shared = withBlocks({
      a: block(flag, { topLevel: true, next: 'c' }),
      b: block(flag, { topLevel: true, next: 'c' }),
      c: block('looks_show', { parent: 'a' }),
    });
    expect(() => analyzeProject(shared)).toThrow(expect.objectContaining({ code: 'cycle', block: 'c' }));
  });

  it('a next or parent that is not a block id', () => {
    // Read as "no link" before: the blocks it led to were left out without a word.
    for (const [key, value] of [
      ['next', 5],
      ['next', { id: 'b' }],
      ['parent', ['a']],
    ] as const) {
      const project = withBlocks({
        a: block(flag, { topLevel: true, [key]: value }),
        b: block('looks_show', { parent: 'a' }),
      });
      expect(() => analyzeProject(project)).toThrow(
        expect.objectContaining({
          code: 'bad-project',
          block: 'a',
          message: `target "Cat": block "a" has a ${key} that is not a block id (${JSON.stringify(value)})`,
        }),
      );
    }
  });

  it('a link to a missing block', () => {
    const project = withBlocks({ a: block(flag, { topLevel: true, next: 'gone' }) });
    expect(() => analyzeProject(project)).toThrow(
      expect.objectContaining({ code: 'missing-block', block: 'gone' }),
    );
    const input = withBlocks({
      a: block('motion_movesteps', { topLevel: true, inputs: { STEPS: [3, 'gone', [4, '1']] } }),
    });
    // The error names the block whose input holds the link (it said block "?"), as for `next`.
    expect(() => analyzeProject(input)).toThrow(
      expect.objectContaining({
        code: 'missing-block',
        block: 'gone',
        message: 'target "Cat": block "a" links to block "gone", which does not exist',
      }),
    );
    expect(() => analyzeProject(project)).toThrow(
      'target "Cat": block "a" links to block "gone", which does not exist',
    );
  });

  it('nesting past the limit, without a stack overflow (20,000 reporters deep)', () => {
    const blocks: Record<string, unknown> = {};
    const depth = 20_000;
    for (let i = 0; i < depth; i++) {
      blocks[`r${i}`] = block('operator_add', {
        topLevel: i === 0,
        parent: i ? `r${i - 1}` : null,
        inputs: i + 1 < depth ? { NUM1: [2, `r${i + 1}`] } : {},
      });
    }
    expect(() => analyzeProject(withBlocks(blocks))).toThrow(expect.objectContaining({ code: 'too-deep' }));
    // Within a raised limit it is read, iteratively.
    const { metrics } = analyzeProject(withBlocks(blocks), { maxDepth: depth });
    expect(metrics.maxBlocksPerScript).toBe(depth);
  });

  it('more blocks than the limit, counted before any is read', () => {
    const project = projectOf([flag, 'looks_show', 'looks_hide']);
    expect(() => analyzeProject(project, { maxBlocks: 2 })).toThrow(
      expect.objectContaining({ code: 'too-many-blocks' }),
    );
    expect(analyzeProject(project, { maxBlocks: 3 }).summary.blocks).toBe(3);
    expect(() => analyzeProject(project, { maxBlocks: 0 })).toThrow(RangeError);
    expect(() => analyzeProject(project, { maxDepth: Number.NaN })).toThrow(/maxDepth/);
  });

  it('bodies of the wrong shape, and input that is not a project', () => {
    expect(() => analyzeProject({ objName: 'Stage', children: [] } as never)).toThrow(
      expect.objectContaining({ code: 'scratch2' }),
    );
    expect(() => analyzeProject('{"targets": 3}')).toThrow(expect.objectContaining({ code: 'bad-project' }));
    expect(() => analyzeProject('{not json')).toThrow(expect.objectContaining({ code: 'bad-project' }));
    expect(() => analyzeProject({ targets: [7] } as never)).toThrow(
      expect.objectContaining({ code: 'bad-project' }),
    );
    expect(() => analyzeProject(withBlocks({ a: { next: null } }))).toThrow(
      expect.objectContaining({ code: 'bad-project', block: 'a' }),
    );
    expect(() => analyzeProject(withBlocks({ a: [99, 'x'] }))).toThrow(
      expect.objectContaining({ code: 'bad-project' }),
    );
    expect(() => analyzeProject(withBlocks({ a: block('looks_show', { inputs: { X: 5 } }) }))).toThrow(
      expect.objectContaining({ code: 'bad-project' }),
    );
    expect(() => analyzeProject(42 as never)).toThrow(TypeError);
    expect(() => analyzeProject(null as never)).toThrow(TypeError);
  });

  it('hostile values: an array nested 200,000 deep in a literal or a field, keys named __proto__', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const literal = withBlocks({
      a: block('looks_say', { topLevel: true, inputs: { MESSAGE: [1, [10, deep]] } }),
    });
    // Failed before with "Maximum call stack size exceeded" (String() of the nested array).
    expect(analyzeProject(literal).model.sprites[0]!.scripts[0]!.stack[0]!.inputs[0]!.primitive!.value).toBe(
      '',
    );
    const field = withBlocks({
      a: block('data_setvariableto', { topLevel: true, fields: { VARIABLE: [deep, 'v'] } }),
    });
    expect(analyzeProject(field).model.sprites[0]!.blocks.get('a')!.fields.VARIABLE).toEqual({
      value: null,
      id: 'v',
    });
    const proto = JSON.parse(
      '{"targets":[{"name":"S","variables":{"__proto__":["v",1]},"blocks":{"__proto__":{"opcode":"__proto__","next":null,"parent":null,"inputs":{},"fields":{"__proto__":["x",null]},"shadow":false,"topLevel":true}}}]}',
    );
    const { summary, smells } = analyzeProject(proto);
    expect(summary.opcodes).toEqual(JSON.parse('{"__proto__":1}'));
    expect(smells.unusedVariables.map((site) => site.name)).toEqual(['v']);
  });

  it('an archive without project.json, a Scratch 2 archive, and .sb3 bytes read whole', () => {
    const empty = buildZip([{ name: 'a.txt', data: 'x' }]);
    expect(() => analyzeProject(empty)).toThrow(
      expect.objectContaining({ name: 'ArchiveError', code: 'no-project-json' }),
    );
    const sb2 = buildZip([
      { name: 'project.json', data: JSON.stringify({ objName: 'Stage', children: [] }) },
    ]);
    expect(() => analyzeProject(sb2)).toThrow(
      expect.objectContaining({ name: 'ArchiveError', code: 'scratch2' }),
    );
    const project = projectOf([flag, 'looks_show']);
    const bytes = writeSb3({ json: project as never, assets: new Map() });
    expect(analyzeProject(bytes).summary.blocks).toBe(2);
    expect(
      analyzeProject(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
        .summary.blocks,
    ).toBe(2);
    expect(analyzeProject({ json: project as never }).summary.blocks).toBe(2);
    expect(AnalysisError.prototype).toBeInstanceOf(RangeError);
  });

  it('.sb3 bytes: only project.json is inflated, so a small archive of huge assets costs nothing', () => {
    // 16 assets whose headers promise 31 MiB each (496 MiB, within the limits): inflating one
    // fails (its data is one byte), so an analysis that reads them throws, and one that does not
    // reads the body alone. Before, a 0.5 MB archive of such assets took 584 MB and 2.3 s.
    const assets = Array.from({ length: 16 }, (_, i) => ({
      name: `${String(i).padStart(32, '0')}.wav`,
      data: 'x',
      method: 0,
      declaredSize: 31 * 1024 * 1024,
    }));
    const body = JSON.stringify(projectOf([flag, 'looks_show']));
    const bomb = buildZip([{ name: 'project.json', data: body }, ...assets]);
    expect(() => readSb3(bomb)).toThrow(expect.objectContaining({ name: 'ArchiveError' }));
    expect(analyzeProject(bomb).summary.blocks).toBe(2);
    // In a folder, and with the limits still checked from the headers.
    const nested = buildZip([
      { name: 'p/project.json', data: body },
      ...assets.map((a) => ({ ...a, name: `p/${a.name}` })),
    ]);
    expect(analyzeProject(nested).summary.blocks).toBe(2);
    const sprite = buildZip([{ name: 'sprite.json', data: '{}' }, ...assets]);
    expect(() => analyzeProject(sprite)).toThrow(expect.objectContaining({ code: 'sprite' }));
    const over = buildZip([
      { name: 'project.json', data: body },
      ...Array.from({ length: 17 }, (_, i) => ({ ...assets[0]!, name: `${i}.wav` })),
    ]);
    expect(() => analyzeProject(over)).toThrow(expect.objectContaining({ code: 'limit' }));
  });
});
