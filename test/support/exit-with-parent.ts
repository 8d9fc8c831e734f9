/**
 * Set-up of every test file (vitest.config.ts): a worker ends when its vitest is gone. vitest
 * reports a worker's errors to its parent over IPC; with the parent gone (SIGKILLed, or Ctrl-C'd
 * before it stopped its workers) each report fails in turn and the worker spins at full CPU forever.
 * Its `disconnect` event is not seen (a listener before ours fails first), so the channel's state is
 * read on a timer, which keeps running in that state. (`Symbol.for`: the set-up runs for each file a
 * worker takes; one timer is enough.)
 */
const FLAG = Symbol.for('scratchlab.exitWithParent');
const state = globalThis as { [FLAG]?: true };
if (process.send !== undefined && state[FLAG] === undefined) {
  state[FLAG] = true;
  setInterval(() => {
    // vitest replaces `process.exit` in its workers with a report to the parent: a signal instead.
    if (!process.connected) process.kill(process.pid, 'SIGKILL');
  }, 250).unref();
}
