import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { bytes, parseId } from '../http-utils.js';
import { type ImageKind, placeholderSvg } from '../images.js';
import type { Router } from '../router.js';

const FILE = /^(\d{1,15})_(\d{1,4})x(\d{1,4})\.(svg|png)$/;

/**
 * Generated thumbnails and avatars under `/images/<kind>/<id>_<w>x<h>.svg`: what the records'
 * image URLs point at. `.png` names are answered with the same SVG, for clients that guess names.
 */
export function imageRoutes(router: Router, ctx: SandboxContext): void {
  const { store } = ctx;
  const labels: Record<ImageKind, (id: number) => string | undefined> = {
    user: (id) => store.users.get(id)?.username,
    project: (id) => store.projects.get(id)?.title,
    studio: (id) => store.studios.get(id)?.title,
    news: (id) => store.news.find((n) => n.id === id)?.headline,
  };

  router.get('/images/:kind/:file', (req) => {
    const kind = req.params.kind as ImageKind;
    const match = FILE.exec(req.params.file ?? '');
    if (!Object.hasOwn(labels, kind) || !match) throw notFound();
    const id = parseId(match[1]);
    const width = Number(match[2]);
    const height = Number(match[3]);
    const label = id === null ? undefined : labels[kind](id);
    if (label === undefined || width < 1 || height < 1 || width > 2000 || height > 2000) throw notFound();
    return bytes(placeholderSvg(kind, id!, width, height, label), 'image/svg+xml', {
      'Cache-Control': 'public, max-age=3600',
    });
  });
}
