/**
 * A password prompt that echoes nothing: keys are taken from readline (see `keypress-capture.ts`)
 * and the terminal is in raw mode, so neither readline nor the terminal shows them.
 */
import { emitKeypressEvents } from 'node:readline';
import type { KeypressRouter } from './keypress-capture.js';

/** The terminal a prompt talks to. */
export interface PromptTerminal {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  router: KeypressRouter;
}

/** Thrown when the user presses Ctrl-C or Ctrl-D at a hidden prompt. */
export class PromptCancelled extends Error {
  override readonly name = 'PromptCancelled';
  constructor() {
    super('cancelled');
  }
}

/**
 * Asks a question and reads the answer without showing it.
 *
 * @throws PromptCancelled on Ctrl-C, or Ctrl-D on an empty answer.
 */
export function askHidden(question: string, { input, output, router }: PromptTerminal): Promise<string> {
  emitKeypressEvents(input);
  const wasRaw = input.isTTY ? input.isRaw : false;
  const wasPaused = input.isPaused();
  if (input.isTTY) input.setRawMode(true);
  input.resume();
  output.write(question);
  return new Promise((resolve, reject) => {
    let answer = '';
    const release = router.capture((text, key) => {
      const name = key?.name;
      if (key?.ctrl && (name === 'c' || (name === 'd' && answer === ''))) {
        finish();
        reject(new PromptCancelled());
      } else if (name === 'return' || name === 'enter') {
        finish();
        resolve(answer);
      } else if (name === 'backspace') {
        answer = Array.from(answer).slice(0, -1).join('');
      } else if (text && !key?.ctrl && !key?.meta && !/[\r\n]/.test(text)) {
        answer += text;
      }
    });
    function finish(): void {
      release();
      output.write('\n');
      if (input.isTTY) input.setRawMode(wasRaw);
      if (wasPaused) input.pause();
    }
  });
}
