/**
 * What `readSb3` reports meets the service: `save` names every bad file or repairs them, and
 * TurboWarp fonts travel as assets (uploaded, downloaded, written), against the sandbox.
 */
import { describe, expect, it } from 'vitest';
import { md5ext, readSb3, writeSb3 } from '../../src/index.js';
import { JsonDepthError } from '../../src/records/json.js';
import { buildZip } from '../support/build-zip.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();
const encode = (text: string) => new TextEncoder().encode(text);

function stage(costume: string, extra: Record<string, unknown> = {}) {
  return {
    targets: [
      {
        isStage: true,
        name: 'Stage',
        costumes: [{ name: 'backdrop', assetId: costume.slice(0, 32), md5ext: costume, dataFormat: 'svg' }],
        sounds: [],
      },
    ],
    monitors: [],
    extensions: [],
    meta: { semver: '3.0.0' },
    ...extra,
  };
}

describe('save and download of what readSb3 reports', () => {
  it('save names every mismatched asset, and { repair: true } renames them and their references', async () => {
    const owner = await ctx.login(0);
    const target = ctx.sandbox.samples.unsharedProject;
    const svg = encode(`<svg xmlns="http://www.w3.org/2000/svg" id="repair-${Math.random()}"/>`);
    const other = encode(`<svg xmlns="http://www.w3.org/2000/svg" id="other-${Math.random()}"/>`);
    const wrong = `${'c'.repeat(32)}.svg`;
    const wrongOther = `${'d'.repeat(32)}.svg`;
    const json = stage(wrong);
    json.targets[0]!.costumes.push({
      name: 'b',
      assetId: 'd'.repeat(32),
      md5ext: wrongOther,
      dataFormat: 'svg',
    });
    const bytes = buildZip([
      { name: 'project.json', data: JSON.stringify(json) },
      { name: wrong, data: svg },
      { name: wrongOther, data: other },
    ]);
    const project = readSb3(bytes);
    expect(project.problems.map((p) => p.kind)).toEqual(['md5-mismatch', 'md5-mismatch']);

    const before = await owner.projects.getJson(target);
    const refused = await owner.projects.save(target, bytes).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(RangeError);
    expect((refused as Error).message).toContain(`asset ${wrong} does not match its bytes`);
    expect((refused as Error).message).toContain(`asset ${wrongOther} does not match its bytes`);
    expect((refused as Error).message).toContain('{ repair: true }');
    expect(await owner.projects.getJson(target)).toEqual(before);

    await owner.projects.save(target, project, { repair: true });
    const back = await owner.projects.download(target);
    expect([...back.assets.keys()]).toEqual([md5ext(svg, 'svg'), md5ext(other, 'svg')]);
    expect(back.json.targets[0]!.costumes!.map((c) => c.md5ext)).toEqual([
      md5ext(svg, 'svg'),
      md5ext(other, 'svg'),
    ]);
  });

  it('TurboWarp custom fonts are uploaded, downloaded and written', async () => {
    const owner = await ctx.login(0);
    const target = ctx.sandbox.samples.unsharedProject;
    const svg = encode(`<svg xmlns="http://www.w3.org/2000/svg" id="font-${Math.random()}"/>`);
    const font = encode(`\0\x01\0\0 a font ${Math.random()}`);
    const fontName = md5ext(font, 'ttf');
    const json = stage(md5ext(svg, 'svg'), {
      customFonts: [{ system: false, family: 'Mine', fallback: 'sans-serif', md5ext: fontName }],
    });
    await owner.projects.save(target, {
      json,
      assets: new Map([
        [md5ext(svg, 'svg'), svg],
        [fontName, font],
      ]),
    });
    expect(await owner.projects.downloadAsset(fontName)).toEqual(font);
    const back = await owner.projects.download(target);
    expect(back.assets.get(fontName)).toEqual(font);
    const written = readSb3(writeSb3(back));
    expect(written.assets.get(fontName)).toEqual(font);
    expect(written.problems).toEqual([]);
  });

  it('a body nested too deep is refused with a clear error before anything is sent', async () => {
    const owner = await ctx.login(0);
    const target = ctx.sandbox.samples.unsharedProject;
    const before = await owner.projects.getJson(target);
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    await expect(owner.projects.setJson(target, { targets: [], deep })).rejects.toThrow(JsonDepthError);
    const text = `{"targets":[],"x":${'['.repeat(3000)}${']'.repeat(3000)}}`;
    await expect(owner.projects.save(target, { json: text })).rejects.toThrow(
      /project.json nests deeper than 1000/,
    );
    expect(await owner.projects.getJson(target)).toEqual(before);
  });
});
