/**
 * The Scratch Team list: the credits page's script (`/js/credits.bundle.js`) carries it as
 * `JSON.parse('[{"userName":…,"userId":…,"name":…},…]')` (scratch-www's
 * `src/views/credits/people.json`, bundled; scratchattach's `scratch_team_members` reads it so).
 * The single-quoted JavaScript string is unescaped, then parsed as JSON with bounded depth.
 */

import { UnreadablePageError } from './html.js';
import { parseJson } from './json.js';
import type { ScratchTeamMember } from './profile-records.js';

const START = `JSON.parse('[{"userName"`;
/** More members than any credits page lists: past it, the script is refused. */
export const MAX_TEAM_MEMBERS = 10_000;

/** The JavaScript string literal starting at `from` (after its opening `'`), unescaped; `null` if unterminated. */
function stringLiteral(text: string, from: number): string | null {
  let out = '';
  // Stryker disable next-line EqualityOperator: equivalent, one more turn past the end adds to a string that is then dropped (null)
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "'") return out;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = text[++i];
    // Stryker disable next-line ConditionalExpression: equivalent, the loop then ends at once and answers null too
    if (next === undefined) return null;
    if (next === 'u' || next === 'x') {
      const digits = text.slice(i + 1, i + (next === 'u' ? 5 : 3));
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== (next === 'u' ? 4 : 2)) return null;
      out += String.fromCharCode(Number.parseInt(digits, 16));
      i += digits.length;
    } else {
      out +=
        ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', '0': '\0' } as Record<string, string>)[
          next
        ] ?? next;
    }
  }
  return null;
}

/**
 * The members the credits script lists.
 * @throws UnreadablePageError when the script holds no such list, or one that is not one
 */
export function parseCreditsBundle(script: string): ScratchTeamMember[] {
  const at = script.indexOf(START);
  if (at < 0) throw new UnreadablePageError(`team list (${START}…)`);
  const literal = stringLiteral(script, at + "JSON.parse('".length);
  if (literal === null) throw new UnreadablePageError('end of the team list string');
  let rows: unknown;
  try {
    rows = parseJson(literal, 4);
  } catch {
    throw new UnreadablePageError('team list that parses as JSON');
  }
  // Stryker disable next-line ConditionalExpression: equivalent today (the text starts with `[{`), kept in case START changes
  if (!Array.isArray(rows)) throw new UnreadablePageError('team list (an array)');
  if (rows.length > MAX_TEAM_MEMBERS)
    throw new UnreadablePageError(`team list of at most ${MAX_TEAM_MEMBERS} members`);
  return rows.map((row, i): ScratchTeamMember => {
    const r = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
    if (typeof r.name !== 'string' || typeof r.userName !== 'string') {
      throw new UnreadablePageError(`name and userName of member ${i + 1}`);
    }
    const id =
      typeof r.userId === 'number' && Number.isSafeInteger(r.userId) && r.userId > 0 ? r.userId : null;
    return { username: r.userName === '' ? null : r.userName, id, name: r.name };
  });
}
