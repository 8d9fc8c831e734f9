// Issue 2 benchmarks, over loopback with 30 ms of simulated internet latency per answer:
// (a) download of a 100-asset project, concurrent vs one asset at a time (target >= 5);
// (b) all followers of the 2,000-follower user, the all-pages walk vs a sequential page loop (target >= 3).
import { Session } from '../../dist/index.js';
import { startSandbox } from '../../dist/sandbox/index.js';
import { best, fmt, report } from './lib.mjs';

export default async function httpBench() {
  const sandbox = await startSandbox({ latency: 30 });
  try {
    // Measures the client's own concurrency, so the request budget is off (budget.bench.mjs
    // measures the walk under the platform's limit).
    const session = new Session({ hosts: sandbox.hosts, rateLimit: Number.POSITIVE_INFINITY });
    const id = sandbox.samples.assetHeavyProject;

    const sequential = await best(2, () => session.projects.download(id, { concurrency: 1 }));
    const concurrent = await best(3, () => session.projects.download(id));
    const assets = concurrent.result.assets.size;
    const okA = report(
      `(a) download, ${assets} assets`,
      sequential.ms / concurrent.ms,
      5,
      `concurrent ${fmt(concurrent.ms)} vs sequential ${fmt(sequential.ms)}`,
    );

    const name = sandbox.samples.popularUser;
    const loop = await best(2, async () => {
      const rows = [];
      for (let offset = 0; ; offset += 40) {
        const page = await session.users.followers(name, { limit: 40, offset });
        rows.push(...page);
        if (page.length < 40) return rows;
      }
    });
    const walk = await best(3, () => session.users.followers(name).all());
    if (walk.result.length !== loop.result.length) throw new Error('the walk and the loop disagree');
    const okB = report(
      `(b) all ${walk.result.length} followers`,
      loop.ms / walk.ms,
      3,
      `walk ${fmt(walk.ms)} vs page loop ${fmt(loop.ms)}`,
    );
    return okA && okB;
  } finally {
    await sandbox.close();
  }
}
