import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { bytes, parseId } from '../http-utils.js';
import type { Router } from '../router.js';
import { type ImageKind, placeholderPng, placeholderSvg } from '../views/images.js';

const FILE = /^(\d{1,20})_(\d{1,4})x(\d{1,4})\.(svg|png)$/;
/** The real CDN's folder names (`gallery` for studios) and the kinds they hold. */
const CDN_KINDS = new Map<string, ImageKind>([
  ['user', 'user'],
  ['project', 'project'],
  ['gallery', 'studio'],
  ['news', 'news'],
  ['classroom', 'classroom'],
]);
const SVG_KINDS = new Map<string, ImageKind>([
  ['user', 'user'],
  ['project', 'project'],
  ['studio', 'studio'],
  ['news', 'news'],
]);

/**
 * Generated thumbnails and avatars: what the records' image URLs point at. The records carry the
 * real CDN's shape, `/get_image/<kind>/<id>_<w>x<h>.png` (a real PNG); the older
 * `/images/<kind>/<id>_<w>x<h>.svg` names still answer, with a labelled SVG. Any query (`?v=...`)
 * is ignored, as by the CDN.
 */
export function imageRoutes(router: Router, ctx: SandboxContext): void {
  const { store } = ctx;
  // Labels by kind; news ids are digit strings (some pass 2^53), the others safe integers.
  const label = (kind: ImageKind, idText: string): string | undefined => {
    if (kind === 'news') return store.news.find((n) => n.id === idText)?.headline;
    const id = parseId(idText);
    if (id === null) return undefined;
    if (kind === 'user') return store.users.get(id)?.username;
    if (kind === 'project') return store.projects.get(id)?.title;
    if (kind === 'classroom') return store.classrooms.classes.get(id)?.title;
    return store.studios.get(id)?.title;
  };

  const image = (kinds: Map<string, ImageKind>) => (req: { params: Record<string, string> }) => {
    const kind = kinds.get(req.params.kind ?? '');
    const match = FILE.exec(req.params.file ?? '');
    if (!kind || !match) throw notFound();
    const [, idText, w, h, ext] = match;
    const width = Number(w);
    const height = Number(h);
    const text = label(kind, idText!);
    if (text === undefined || width < 1 || height < 1 || width > 2000 || height > 2000) throw notFound();
    // Colours hash the id; news ids past 2^53 only need to stay distinct, so the digits are cut.
    const colourId = Number(idText!.slice(-15));
    const headers = { 'Cache-Control': 'public, max-age=3600' };
    // An uploaded thumbnail (WIRE.md §12.4) is what a project's image shows, at every size.
    const uploaded = kind === 'project' ? store.profileExtras.thumbnails.get(Number(idText)) : undefined;
    if (uploaded && ext === 'png') {
      const type = uploaded[0] === 0xff ? 'image/jpeg' : uploaded[0] === 0x47 ? 'image/gif' : 'image/png';
      return bytes(uploaded, type, { 'Cache-Control': 'no-store' });
    }
    return ext === 'png'
      ? bytes(placeholderPng(kind, colourId, width, height), 'image/png', headers)
      : bytes(placeholderSvg(kind, colourId, width, height, text), 'image/svg+xml', headers);
  };
  router.get('/get_image/:kind/:file', image(CDN_KINDS));
  router.get('/images/:kind/:file', image(SVG_KINDS));
}
