/**
 * HTML tables read in light and dark themes: each table is rendered in headless Chromium inside a
 * page with JupyterLab's light or dark theme variables, and the text must contrast with the page.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderHtmlTable, toTable } from '../../src/presentation/index.js';
import { hasChromium, type JupyterHome, jupyterHome, screenshot } from '../kernel/jupyter.js';
import { decodePng } from '../kernel/png.js';
import { project } from './records.js';

const THEMES = {
  light: { background: '#ffffff', vars: '--jp-ui-font-color1:rgba(0,0,0,.87);--jp-border-color2:#e0e0e0' },
  dark: {
    background: '#111111',
    vars: '--jp-ui-font-color1:rgba(255,255,255,.87);--jp-border-color2:#424242',
  },
  // nbconvert's classic HTML: no JupyterLab variables, the page's own colours.
  plain: { background: '#ffffff', vars: 'color:#000' },
} as const;

describe.skipIf(!hasChromium)('HTML tables in light and dark themes', () => {
  let home: JupyterHome;
  beforeAll(() => {
    home = jupyterHome('present-themes');
  });

  for (const [name, theme] of Object.entries(THEMES)) {
    it(`has readable text in the ${name} theme`, async () => {
      const rows = Array.from({ length: 12 }, (_, i) => project(i + 1, `Project number ${i + 1}`, 'maker'));
      const table = renderHtmlTable(toTable(rows), { siteUrl: 'https://scratch.mit.edu' });
      const file = join(home.dir, `table-${name}.html`);
      writeFileSync(
        file,
        `<!DOCTYPE html><html><body style="margin:0;padding:8px;background:${theme.background};${theme.vars}">${table}</body></html>`,
      );
      const image = decodePng(readFileSync(await screenshot(home, file, '900,420')));
      const lum = (i: number) =>
        0.2126 * image.pixels[i]! + 0.7152 * image.pixels[i + 1]! + 0.0722 * image.pixels[i + 2]!;
      const background = lum(0);
      let ink = 0;
      for (let i = 0; i < image.pixels.length; i += image.channels)
        if (Math.abs(lum(i) - background) > 100) ink++;
      // Twelve rows of titles, names and numbers: thousands of pixels far from the background.
      expect(ink, `${name}: background luminance ${background.toFixed(0)}`).toBeGreaterThan(3000);
    });
  }
});
