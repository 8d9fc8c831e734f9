import { isAssetName, md5Hex } from '../../project/assets.js';
import { contentTypeFor } from '../../project/content-types.js';
import type { SandboxContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { bytes, json, readBody } from '../http-utils.js';
import type { Incoming, Router } from '../router.js';
import { writer } from '../rules/auth.js';

/** The largest asset the sandbox takes (the real limit is about 10 MB); past it, 413. */
const ASSET_LIMIT = 10 * 1024 * 1024;

/**
 * Costumes and sounds under `/assets`, addressed by `md5ext` (WIRE.md §4). Names follow the
 * client's rule (`isAssetName`: lowercase hex), since the platform names assets that way: an
 * uppercase name is refused on upload (400) and names nothing on download (404).
 */
export function assetHostRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions, assetQuota } = ctx;

  const download = (req: Incoming) => {
    // Looked up as given: a name in another case is another name, which nothing is stored under.
    const found = store.assets.get(req.params.md5ext ?? '');
    if (!found) throw notFound();
    return bytes(found.bytes, found.contentType, { 'Cache-Control': 'public, max-age=31536000, immutable' });
  };
  router.get('/assets/:md5ext', download);
  router.get('/assets/internalapi/asset/:md5ext/get', download);

  router.post('/assets/:md5ext', async (req) => {
    const session = writer(req, sessions, 'if-present');
    const name = req.params.md5ext ?? '';
    if (!isAssetName(name)) {
      throw badRequest('the asset name must be 32 lowercase hex digits, a dot and a short extension');
    }
    // A declared length already past the quota is refused before a byte is read.
    const declared = Number(req.raw.headers['content-length']);
    if (Number.isSafeInteger(declared) && declared <= ASSET_LIMIT && !store.assets.has(name)) {
      assetQuota.check(session.userId, declared);
    }
    const data = await readBody(req.raw, ASSET_LIMIT);
    if (data.length === 0) throw badRequest('an asset cannot be empty');
    const md5 = md5Hex(data);
    if (!name.startsWith(`${md5}.`)) {
      throw badRequest(`the bytes' md5 is ${md5}, not the ${name.slice(0, 32)} the name says`);
    }
    // Same name means same bytes, so an asset already stored is kept as it is.
    if (!store.assets.has(name)) {
      assetQuota.check(session.userId, data.length);
      assetQuota.charge(session.userId, data.length);
      store.assets.set(name, { bytes: new Uint8Array(data), contentType: contentTypeFor(name) });
    }
    return json({ status: 'ok', 'content-name': name });
  });
}
