/**
 * Content types of the asset formats Scratch projects use: one table for the client (the
 * `Content-Type` of an upload) and the sandbox (the type an asset is served with), so the two
 * cannot drift apart.
 */

/**
 * By extension. `wav` is `audio/x-wav`, not the registered `audio/wav`, because that is what
 * Scratch's asset server answers for sounds; the sandbox copies it and the client sends the same.
 */
const TYPES: ReadonlyMap<string, string> = new Map([
  ['png', 'image/png'],
  ['svg', 'image/svg+xml'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['bmp', 'image/bmp'],
  ['wav', 'audio/x-wav'],
  ['mp3', 'audio/mpeg'],
]);

/** What any other extension is sent and served as. */
const BYTES = 'application/octet-stream';

/**
 * The content type for an asset, given its `md5ext` name (`<md5>.wav`), an extension with or
 * without its dot (`.png`, `png`), in any case. An unknown extension gives
 * `application/octet-stream`.
 */
export function contentTypeFor(md5extOrExtension: string): string {
  const extension = md5extOrExtension.slice(md5extOrExtension.lastIndexOf('.') + 1).toLowerCase();
  return TYPES.get(extension) ?? BYTES;
}
