/** Content types of the asset formats Scratch uses; anything else is served as bytes. */
const TYPES: Record<string, string> = {
  png: 'image/png',
  svg: 'image/svg+xml',
  wav: 'audio/x-wav',
  mp3: 'audio/mpeg',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  json: 'application/json',
};

/** The content type for an `md5ext` name or a bare extension. */
export function contentTypeFor(nameOrExt: string): string {
  const ext = nameOrExt.slice(nameOrExt.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}
