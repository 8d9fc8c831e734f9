/**
 * The kernel ends with the front end that started it, as IPython's kernel does (its parent
 * poller). A terminal closed under `jupyter console` hangs up on the console, which then cannot
 * send a `shutdown_request`; the kernel runs in a session of its own, so the hang-up never reaches
 * it, and it would stay, with its sandbox, for good.
 */

/** How often the parent is looked at: a getppid() call, nothing more. */
const POLL_MS = 1000;

/**
 * Calls `gone` once the process that started this one has ended (this process was handed to
 * another parent, or to init when that parent had gone before this process started watching). Only under a Jupyter front end (`JPY_PARENT_PID` in `env`, which jupyter_client
 * sets), as IPython does; never keeps the process alive. Answers a function that stops watching.
 */
export function whenParentEnds(env: NodeJS.ProcessEnv, gone: () => void): () => void {
  const named = Number(env.JPY_PARENT_PID);
  // PID 1 (init) never goes away, as IPython says.
  if (!env.JPY_PARENT_PID || !Number.isInteger(named) || named <= 1) return () => {};
  const parent = process.ppid;
  // Not the parent named (it ended before this process looked, or a launcher stands between):
  // as IPython, only an adoption by init tells that it has gone.
  const ended = parent === named ? () => process.ppid !== parent : () => process.ppid === 1;
  const timer = setInterval(() => {
    if (!ended()) return;
    clearInterval(timer);
    gone();
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
