/**
 * Input that is not a terminal (a pipe, a file) arrives all at once: without a queue, node's REPL
 * would start each line before the previous one's `await` is done. Lines wait while the REPL is
 * busy and go on, in order, when it is idle. (On a terminal, the evaluator holds keys instead.)
 */
import type { REPLServer } from 'node:repl';
import type { Activity } from './activity.js';

type LineListener = (line: string) => void;

/** Queues `line` events while `activity` is busy. Answers a promise of "every queued line ran". */
export function queueLines(repl: REPLServer, activity: Activity): { drained(): Promise<void> } {
  const listeners = repl.listeners('line') as LineListener[];
  repl.removeAllListeners('line');
  const queue: string[] = [];
  const dispatch = (line: string) => {
    for (const listener of listeners) listener.call(repl, line);
  };
  const pump = () => {
    while (!activity.busy && queue.length > 0) dispatch(queue.shift()!);
  };
  repl.on('line', (line: string) => {
    if (activity.busy || queue.length > 0) queue.push(line);
    else dispatch(line);
  });
  activity.on('idle', pump);
  return {
    drained: () =>
      new Promise<void>((resolve) => {
        const check = () => {
          pump();
          if (!activity.busy && queue.length === 0) {
            activity.off('idle', check);
            resolve();
          }
        };
        activity.on('idle', check);
        check();
      }),
  };
}
