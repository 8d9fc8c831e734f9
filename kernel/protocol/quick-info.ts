/**
 * Shift-Tab help (`inspect_request`): TypeScript's quick info as text, with TSDoc's inline tags
 * rendered as their text. TypeScript hands `{@link X}` over as separate parts (`link`, `linkName`,
 * `linkText`); tslab's printer joined every part with a line break, so `{@link ApiError}` read
 * "→ \nApiError\n with". Here parts of one comment are joined as written and links become `X`.
 */

/** A symbol display part, as TypeScript's quick info carries them. */
interface DisplayPart {
  text: string;
  kind: string;
}

/** TypeScript's `QuickInfo`, the parts read here. */
export interface QuickInfo {
  displayParts?: readonly DisplayPart[];
  documentation?: readonly DisplayPart[];
  tags?: readonly { name: string; text?: readonly DisplayPart[] }[];
}

/** Comment parts as text: `{@link X}` → `X`, `{@link X | label}` → `label`. */
function commentText(parts: readonly DisplayPart[] = []): string {
  let out = '';
  let inLink = false;
  let linkName = '';
  let linkText = '';
  for (const part of parts) {
    if (part.kind === 'link') {
      if (!inLink) {
        inLink = true;
        linkName = '';
        linkText = '';
      } else {
        inLink = false;
        out += linkText.trim() || linkName.trim();
      }
      continue;
    }
    if (inLink && part.kind === 'linkName') linkName += part.text;
    else if (inLink && part.kind === 'linkText') linkText += part.text;
    else if (inLink) linkText += part.text;
    else out += part.text;
  }
  if (inLink) out += linkText.trim() || linkName.trim();
  // Links a part list did not split (older TypeScript or plain text).
  return out.replace(
    /\{@link(?:code|plain)?\s+([^\s|}]+)(?:\s*\|\s*|\s+)?([^}]*)\}/g,
    (_, name: string, label: string) => (label.trim() ? label.trim() : name),
  );
}

/** The help text of a quick info: signature, documentation, then tags (`@param x …`). */
export function quickInfoText(info: QuickInfo): string {
  const signature = (info.displayParts ?? []).map((p) => p.text).join('');
  const sections = [signature];
  const docs = commentText(info.documentation);
  if (docs) sections.push(docs);
  const tags = (info.tags ?? [])
    .map((tag) => {
      const text = commentText(tag.text);
      return text ? `@${tag.name} ${text}` : `@${tag.name}`;
    })
    .join('\n');
  if (tags) sections.push(tags);
  return sections.filter(Boolean).join('\n\n');
}
