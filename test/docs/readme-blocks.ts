/** The TypeScript code blocks of a Markdown file, each with the heading it sits under. */
import { readFileSync } from 'node:fs';

export interface CodeBlock {
  /** `<file>:<line>` of the opening fence, for messages. */
  readonly where: string;
  /** The nearest heading above it, with the block's number under that heading: `Errors #1`. */
  readonly name: string;
  /** The block's text, without the fences. */
  readonly code: string;
}

/** Every ```ts block of `path` (named `label` in messages); ```sh, ```text and others are left out. */
export function typeScriptBlocks(path: string, label: string): CodeBlock[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  let heading = '(top)';
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const title = /^#{1,6}\s+(.*)$/.exec(line);
    if (title) {
      heading = title[1]!.trim();
      count = 0;
      continue;
    }
    const fence = /^```(\w*)\s*$/.exec(line);
    if (!fence) continue;
    const start = i;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    if (end >= lines.length) throw new Error(`${label}:${start + 1}: a code block is never closed`);
    if (fence[1] === 'ts' || fence[1] === 'typescript') {
      count++;
      blocks.push({
        where: `${label}:${start + 1}`,
        name: `${heading} #${count}`,
        code: lines.slice(start + 1, end).join('\n'),
      });
    }
    i = end;
  }
  return blocks;
}
