import { createHash } from 'node:crypto';
import { writer } from '../auth.js';
import { contentTypeFor } from '../content-types.js';
import type { SandboxContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { bytes, json, readBody } from '../http-utils.js';
import type { Incoming, Router } from '../router.js';

/** The largest asset the sandbox takes (the real limit is about 10 MB). */
export const ASSET_LIMIT = 10 * 1024 * 1024;

/** `md5ext`: 32 hex digits, a dot and a short extension. */
const MD5EXT = /^([0-9a-f]{32})\.([a-z0-9]{1,5})$/i;

/** Costumes and sounds under `/assets`, addressed by `md5ext` (WIRE.md §4). */
export function assetHostRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions } = ctx;

  const download = (req: Incoming) => {
    const name = (req.params.md5ext ?? '').toLowerCase();
    const found = store.assets.get(name);
    if (!found) throw notFound();
    return bytes(found.bytes, found.contentType, { 'Cache-Control': 'public, max-age=31536000, immutable' });
  };
  router.get('/assets/:md5ext', download);
  router.get('/assets/internalapi/asset/:md5ext/get', download);

  router.post('/assets/:md5ext', async (req) => {
    writer(req, sessions, 'if-present');
    const given = req.params.md5ext ?? '';
    const match = MD5EXT.exec(given);
    if (!match) throw badRequest('the asset name must be 32 hex digits, a dot and a short extension');
    const data = await readBody(req.raw, ASSET_LIMIT);
    if (data.length === 0) throw badRequest('an asset cannot be empty');
    const md5 = createHash('md5').update(data).digest('hex');
    if (md5 !== match[1]!.toLowerCase()) {
      throw badRequest(`the bytes' md5 is ${md5}, not the ${match[1]} the name says`);
    }
    const name = given.toLowerCase();
    if (!store.assets.has(name)) {
      store.assets.set(name, { bytes: new Uint8Array(data), contentType: contentTypeFor(name) });
    }
    return json({ status: 'ok', 'content-name': name });
  });
}
