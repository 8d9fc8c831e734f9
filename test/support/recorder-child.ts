/**
 * A recorder in a process of its own, to be killed with SIGKILL: it logs in to a running sandbox
 * (hosts as JSON in `SANDBOX_HOSTS`, account in `SANDBOX_USER`/`SANDBOX_PASSWORD`), records
 * `project` into the store file with `store.recordCloud()`, and prints `stored N` after each write.
 */
import { openStore } from '../../src/data/index.js';
import { Session } from '../../src/index.js';

const [path, project] = process.argv.slice(2);
const { SANDBOX_HOSTS, SANDBOX_USER, SANDBOX_PASSWORD } = process.env;
if (path === undefined || project === undefined || !SANDBOX_HOSTS || !SANDBOX_USER || !SANDBOX_PASSWORD)
  throw new Error('usage: SANDBOX_HOSTS=… SANDBOX_USER=… SANDBOX_PASSWORD=… recorder-child <file> <project>');
const session = await Session.login(SANDBOX_USER, SANDBOX_PASSWORD, { hosts: JSON.parse(SANDBOX_HOSTS) });
const store = await openStore(path);
const recorder = await store.recordCloud(session.cloud(project), { interval: 0.2 });
recorder.on('update', (counts) => process.stdout.write(`stored ${counts.stored}\n`));
recorder.on('error', (error) => process.stdout.write(`error ${error.message}\n`));
process.stdout.write(`recording ${recorder.counts.stored}\n`);
