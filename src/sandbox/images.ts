import { createHash } from 'node:crypto';

/** The kinds of generated image the sandbox serves under `/images/<kind>/`. */
export type ImageKind = 'user' | 'project' | 'studio' | 'news';

const PALETTE = ['#855cd6', '#4c97ff', '#ffab19', '#59c059', '#ff6680', '#40bf9f', '#cf63cf', '#ff8c1a'];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A small SVG standing in for a thumbnail or avatar: a coloured card with a label. Colours come
 * from a hash of the kind and id, so one image always looks the same.
 */
export function placeholderSvg(
  kind: ImageKind,
  id: number,
  width: number,
  height: number,
  label: string,
): string {
  const digest = createHash('md5').update(`${kind}:${id}`).digest();
  const background = PALETTE[digest[0]! % PALETTE.length]!;
  const accent = PALETTE[(digest[1]! % (PALETTE.length - 1)) + 1]!;
  const text = escapeXml(label.slice(0, kind === 'user' ? 2 : 24));
  const fontSize = Math.max(8, Math.round(Math.min(width, height) * (kind === 'user' ? 0.45 : 0.12)));
  const shape =
    kind === 'user'
      ? `<circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) * 0.42}" fill="${accent}" opacity="0.5"/>`
      : `<circle cx="${width * 0.8}" cy="${height * 0.25}" r="${Math.min(width, height) * 0.18}" fill="${accent}"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="${background}"/>${shape}` +
    `<text x="50%" y="55%" font-family="Helvetica, Arial, sans-serif" font-size="${fontSize}" fill="#fff" ` +
    `text-anchor="middle" dominant-baseline="middle">${text}</text></svg>`
  );
}
