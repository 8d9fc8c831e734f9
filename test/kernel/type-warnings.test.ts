// A cell's type warnings (kernel/execution/type-warnings.ts): each problem at its cell line and
// column, with the line and a caret, bounded however long the line.
import { describe, expect, it } from 'vitest';
import { typeWarnings } from '../../kernel/execution/type-warnings.js';

const problem = (line: number, column: number) => ({
  line,
  column,
  message: "Type 'number' is not assignable to type 'string'.",
  code: 2322,
});

describe("a cell's type warnings", () => {
  it('show the line and a caret under the column', () => {
    expect(typeWarnings([problem(2, 7)], 'Cell In[3]', 'const a = 1;\nconst s: string = 1;')).toBe(
      "Cell In[3], line 2, column 7: warning TS2322: Type 'number' is not assignable to type 'string'.\n" +
        '    const s: string = 1;\n' +
        '          ^\n',
    );
  });

  it('show a window of a long line around the column, the caret under it', () => {
    // One line of a megabyte (a data dump), a problem far into it, twenty problems on it.
    const line = `${'x'.repeat(500_000)}const s: string = 1;${'y'.repeat(500_000)}`;
    const column = 500_001 + 6;
    const text = typeWarnings(Array(20).fill(problem(1, column)), 'Cell In[1]', line);
    expect(text.length).toBeLessThan(20 * 400);
    const [, code, caret] = text.split('\n');
    expect(code).toMatch(/^ {4}…x+const s: string = 1;y+…$/);
    expect(code!.length).toBeLessThan(200);
    expect(code![caret!.indexOf('^')]).toBe('s');
  });
});
