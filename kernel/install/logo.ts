/**
 * The kernels' logo, drawn as SVG and rendered to the PNGs Jupyter front ends show in their
 * launchers (`logo-32x32.png`, `logo-64x64.png` in the kernelspec folder). Rendered when the
 * kernels are installed, so the package ships no images; shapes only, no text, so no font is
 * needed.
 */
import { Resvg } from '@resvg/resvg-js';

/** Scratch's event-block orange, a stack of two white blocks with their notches, and a cursor. */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<rect x="2" y="2" width="60" height="60" rx="12" fill="#ffab19"/>
<path d="M12 16h8l3 3h6l3-3h20v12H32l-3 3h-6l-3-3h-8z" fill="#fff"/>
<path d="M12 34h8l3 3h6l3-3h12v12H32l-3 3h-6l-3-3h-8z" fill="#fff" fill-opacity=".8"/>
<path d="M46 38l10 5-4 1.5 3 5-2.5 1.5-3-5-3.5 3z" fill="#4c97ff" stroke="#fff" stroke-width="1.2" stroke-linejoin="round"/>
</svg>`;

/** The logo as a `size`×`size` PNG. */
function logoPng(size: number): Buffer {
  const rendered = new Resvg(LOGO_SVG, {
    fitTo: { mode: 'width', value: size },
    font: { loadSystemFonts: false },
  });
  return rendered.render().asPng();
}

/** The logo files of a kernelspec folder: name → PNG. */
export function logoFiles(): Map<string, Buffer> {
  return new Map([
    ['logo-32x32.png', logoPng(32)],
    ['logo-64x64.png', logoPng(64)],
    ['logo-svg.svg', Buffer.from(LOGO_SVG)],
  ]);
}
