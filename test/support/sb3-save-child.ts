// Saves a project of incompressible assets to argv[2]: run under a file-size limit, it dies mid-write.
import { randomBytes } from 'node:crypto';
import { md5ext, saveSb3 } from '../../src/index.js';

const assets = new Map<string, Uint8Array>();
for (let i = 0; i < 4; i++) {
  const bytes = new Uint8Array(randomBytes(64 * 1024));
  assets.set(md5ext(bytes, 'png'), bytes);
}
await saveSb3(process.argv[2]!, {
  json: { targets: [], monitors: [], extensions: [], meta: { semver: '3.0.0' } },
  assets,
});
