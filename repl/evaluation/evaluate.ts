/**
 * The REPL's `eval`: transpiles an input (`transpile.ts`), runs it in the main context (so values
 * are plain `Array`s and `Uint8Array`s the SDK accepts, not another realm's), awaits what needs
 * awaiting (top-level `await`, a `PagedList` typed without `await`, a promise, helpers' promises),
 * and keeps Ctrl-C working: a loop is broken by SIGINT, a pending call is aborted (`interrupt.ts`).
 */
import type { REPLEval } from 'node:repl';
import { types } from 'node:util';
import { Script } from 'node:vm';
import { isQuiet, type OutputNotes } from '../display/display.js';
import type { Activity } from '../terminal/activity.js';
import type { Release } from '../terminal/keypress-capture.js';
import type { Toolkit } from '../toolkit.js';
import { noteCallerInput } from './caller-mistake.js';
import { isCompletionProbe } from './completion.js';
import { InterruptedError, withInputSignal } from './interrupt.js';
import { importOption } from './module-loader.js';
import { transpile } from './transpile.js';

/** What the evaluator works with. */
interface EvaluatorOptions {
  /** Marked busy while an input runs. */
  activity: Activity;
  /** Tells whether the input printed something itself (then its `undefined` is not printed). */
  notes: OutputNotes;
  /** Holds back keys typed while an input runs, calling `onInterrupt` on Ctrl-C (terminals only). */
  hold?: (onInterrupt: () => void) => Release;
  /** The terminal, whose raw mode is turned off while synchronous code runs so Ctrl-C is a SIGINT. */
  input?: NodeJS.ReadStream;
  /** The rich layer (loaded after the first prompt): inputs wait for it. */
  toolkit: Promise<Pick<Toolkit, 'awaitsItself' | 'afterInput'>>;
  /**
   * What an input must wait for before it runs, if anything: the session and the sandbox start
   * in the background, and only an input that names them waits.
   */
  prerequisite?: (code: string) => Promise<unknown> | undefined;
  /** Called when an input has finished, before its value is printed (e.g. to notice a new `session`). */
  afterEach?: () => void;
}

/** Makes the REPL's `eval`. */
export function createEvaluator(options: EvaluatorOptions): REPLEval {
  const { activity, notes, hold, input, toolkit, prerequisite, afterEach } = options;
  let afterInput = () => {};
  toolkit.then(
    (loaded) => {
      afterInput = loaded.afterInput;
    },
    () => undefined, // each input reports the failure
  );

  function runScript(script: Script): unknown {
    const raw = input?.isTTY === true && input.isRaw;
    // In raw mode Ctrl-C is just a key; with it off, the terminal sends SIGINT, which
    // `breakOnSigint` turns into an exception in a runaway loop.
    if (raw) input.setRawMode(false);
    try {
      return script.runInThisContext({ displayErrors: false, breakOnSigint: true });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') {
        throw new InterruptedError('Interrupted by Ctrl-C');
      }
      throw error;
    } finally {
      if (raw) input.setRawMode(true);
    }
  }

  async function run(
    code: string,
    file: string,
    interruption: Promise<never>,
    signal: AbortSignal,
  ): Promise<{ value: unknown }> {
    const [transpiled, { awaitsItself }] = await Promise.race([
      Promise.all([transpile(code), toolkit, prerequisite?.(code)]),
      interruption,
    ]);
    const script = new Script(transpiled.code, { filename: file, ...importOption(transpiled.code) });
    let value = withInputSignal(signal, () => runScript(script));
    if (transpiled.async || awaitsItself(value) || types.isPromise(value)) {
      value = await Promise.race([value, interruption]);
    }
    return { value };
  }

  return function evaluate(code, _context, file, callback) {
    if (isCompletionProbe(code)) {
      // Tab completion asks for the value of the expression before the dot: evaluate it plainly,
      // without awaiting lists (that would send requests) or holding keys.
      try {
        callback(null, new Script(code, { filename: file }).runInThisContext({ displayErrors: false }));
      } catch (error) {
        callback(error as Error, undefined);
      }
      return;
    }
    const end = activity.begin();
    const printedBefore = notes.count;
    let interrupt: (error: Error) => void = () => undefined;
    const interruption = new Promise<never>((_, reject) => {
      interrupt = reject;
    });
    interruption.catch(() => undefined);
    const controller = new AbortController();
    const release = hold?.(() => {
      const reason = new InterruptedError();
      controller.abort(reason); // the SDK calls under way reject with it
      interrupt(reason);
    });
    let settled = false;
    const settle = (outcome: { value: unknown } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      afterInput();
      afterEach?.();
      if ('error' in outcome) {
        noteCallerInput(outcome.error, code, file);
        // Whatever was thrown (even a string) is printed as node would.
        callback(outcome.error as Error, undefined);
      } else if ((outcome.value === undefined || isQuiet(outcome.value)) && notes.count > printedBefore) {
        // node's REPL prints a value only when the callback gets two arguments: after `show(x)`,
        // the table was the output and its `undefined` is not worth a line.
        (callback as (error: null) => void)(null);
      } else {
        callback(null, outcome.value);
      }
      // Keys typed meanwhile go to readline now, after the prompt is back.
      release?.();
      end();
    };
    run(code, file, interruption, controller.signal).then(settle, (error: unknown) => settle({ error }));
  };
}
