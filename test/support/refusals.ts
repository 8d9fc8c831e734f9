// What a call refuses with, as one comparable value: the error's class and message, or what an
// unreadable page lacks.
import { expect } from 'vitest';
import { UnreadablePageError } from '../../src/records/html.js';

/** `"RangeError: limit must be at least 1, got 0"` for a call that throws; `"accepted"` for one that does not. */
export function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
  return 'accepted';
}

/** What a page reader says the page lacks ({@link UnreadablePageError}'s `missing`); fails for anything else. */
export function missingPart(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UnreadablePageError);
    return (error as UnreadablePageError).missing;
  }
  throw new Error('expected an UnreadablePageError');
}
