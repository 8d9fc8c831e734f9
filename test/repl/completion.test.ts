import { describe, expect, it } from 'vitest';
import { cleanCompletions } from '../../repl/evaluation/completion.js';

describe('completion lists', () => {
  it('puts own members first and drops Object.prototype members', () => {
    // node's order: Object.prototype's group, the class's, then the object's own.
    const node = [
      'o.__proto__',
      'o.hasOwnProperty',
      'o.toString',
      '',
      'o.constructor',
      'o.area',
      '',
      'o.tally',
      'o.total',
    ];
    expect(cleanCompletions(node, 'o.')).toEqual(['o.tally', 'o.total', '', 'o.area']);
  });

  it('keeps a single real match alone (completed in place), and noise when it is all that matches', () => {
    expect(cleanCompletions(['o.toLocaleString', 'o.toString', '', 'o.total'], 'o.to')).toEqual(['o.total']);
    expect(cleanCompletions(['o.hasOwnProperty'], 'o.has')).toEqual(['o.hasOwnProperty']);
  });

  it('leaves global names in node order', () => {
    expect(cleanCompletions(['session', 'setTimeout', '', 'Session'], 'se')).toEqual([
      'session',
      'setTimeout',
      '',
      'Session',
    ]);
  });
});
