/**
 * A call that must end, made in a worker thread: for the checks that a matcher or parser does not
 * backtrack for hours on a hostile input. No clock is read in the assertion; the test asserts the
 * answer, and the bound only stops a thread that never ends (a worker busy in a loop can be
 * terminated, the test's own thread stays free) and fails the test saying what did not end.
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What the call answered: its value, or the message of what it threw. */
export type WorkerAnswer = { value: unknown } | { error: string };

/**
 * Imports the built module `modulePath` in a worker thread and answers what `body` (the text of
 * an async function's body, given `m`, the module, and `args`) returns or throws.
 * @throws Error naming `what` when the worker has not answered in `limitMs` (it is terminated)
 */
export async function answerInWorker(
  modulePath: string,
  body: string,
  args: unknown[],
  what: string,
  limitMs = 30_000,
): Promise<WorkerAnswer> {
  const source = `
const { parentPort, workerData } = require('node:worker_threads');
const run = async (m, args) => { ${body} };
const post = (answer) => {
  try {
    parentPort.postMessage(answer);
  } catch (error) {
    parentPort.postMessage({ error: 'the answer cannot be sent: ' + error.message });
  }
};
import(workerData.url)
  .then((m) => run(m, workerData.args))
  .then((value) => post({ value }), (error) => post({ error: String(error?.message ?? error) }));
`;
  const worker = new Worker(source, {
    eval: true,
    workerData: { url: pathToFileURL(modulePath).href, args },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise<WorkerAnswer>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`the worker for ${what} exited (${code}) without an answer`)),
      );
      timer = setTimeout(() => reject(new Error(`${what} did not end in ${limitMs / 1000} s`)), limitMs);
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}
