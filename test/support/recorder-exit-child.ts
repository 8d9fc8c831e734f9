/**
 * The README's "Cloud history that survives" as a process of its own, which must end by itself:
 * against a running sandbox (hosts as JSON in `SANDBOX_HOSTS`, account in `SANDBOX_USER` /
 * `SANDBOX_PASSWORD`), a recorder on `session.cloud(project)` (the recorder's own connection), a
 * second connection that sets a value and is disconnected, then `recorder.stop()` and
 * `store.close()`. Prints `stopped <cloud state>`; nothing keeps it alive after that.
 */
import { openStore } from '../../src/data/index.js';
import { Session } from '../../src/index.js';

const [path, project] = process.argv.slice(2);
const { SANDBOX_HOSTS, SANDBOX_USER, SANDBOX_PASSWORD } = process.env;
if (path === undefined || project === undefined || !SANDBOX_HOSTS || !SANDBOX_USER || !SANDBOX_PASSWORD)
  throw new Error(
    'usage: SANDBOX_HOSTS=… SANDBOX_USER=… SANDBOX_PASSWORD=… recorder-exit-child <file> <project>',
  );
const session = await Session.login(SANDBOX_USER, SANDBOX_PASSWORD, { hosts: JSON.parse(SANDBOX_HOSTS) });
const store = await openStore(path);
const cloud = session.cloud(project);
const recorder = await store.recordCloud(cloud, { interval: 0.2 });
const arrived = new Promise<void>((resolve) =>
  recorder.on('update', (counts) => counts.live >= 1 && resolve()),
);
const player = session.cloud(project);
await player.setVar('high score', 4242);
await arrived;
await player.disconnect();
await recorder.stop();
process.stdout.write(`stopped ${cloud.state}\n`);
await store.close();
