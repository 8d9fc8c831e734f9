// Issue 25 benchmark: crawling the forums through the sandbox at the platform's limit (10 requests
// a second per address, a burst of 10) and 40 ms of simulated latency, with the default request
// budget. The limit bounds any client at 10 pages a second: 200 posts a second (20 a page).
// (a) the sample category crawled whole, its topic pages then every post of every topic, one
//     topic after another: pages a second against the limit (target >= 0.8), posts a second, 429s
//     (target 0);
// (b) the busy topic's 63 pages in one walk (pages prefetched): the same figures;
// (c) sandbox start-up, and the cost of generating the forums, which the first forum request pays
//     (not start-up): ratio of generation to start-up.
// Figures are noisy: the machine is shared.
import { Session } from '../../dist/index.js';
import { startSandbox } from '../../dist/sandbox/index.js';
import { seedForums } from '../../dist/sandbox/seed/seed-forums.js';
import { best, fmt, report, time } from './lib.mjs';

const LIMIT = { perSecond: 10, burst: 10 };

async function onSandbox(fn) {
  const sandbox = await startSandbox({ latency: 40, rateLimit: LIMIT });
  try {
    // The forums are generated on the first forum request: not part of what is measured.
    await fetch(`${sandbox.url}/discuss/`).then((r) => r.text());
    const session = new Session({ hosts: sandbox.hosts });
    const before = sandbox.traffic.requests;
    const run = await time(() => fn(session, sandbox));
    return {
      ...run.result,
      ms: run.ms,
      requests: sandbox.traffic.requests - before,
      refused: sandbox.traffic.limited,
    };
  } finally {
    await sandbox.close();
  }
}

function figures(label, run) {
  const seconds = run.ms / 1000;
  const pagesPerSecond = run.requests / seconds;
  const ok = report(
    label,
    pagesPerSecond / LIMIT.perSecond,
    0.8,
    `${(run.posts / seconds).toFixed(0)} posts/s, ${pagesPerSecond.toFixed(1)} pages/s vs the limit's ${LIMIT.perSecond}; ${run.posts} posts, ${run.requests} requests in ${fmt(run.ms)}, ${run.refused} answered 429`,
  );
  return ok && run.refused === 0;
}

export default async function forumsBench() {
  const category = await onSandbox(async (session, sandbox) => {
    const topics = await session.forums.topics(sandbox.samples.forumCategory).all();
    let posts = 0;
    for (const topic of topics) posts += (await session.forums.posts(topic.id).all()).length;
    return { posts };
  });
  const okA = figures('(a) a category crawled, topic by topic', category);

  const busy = await onSandbox(async (session, sandbox) => ({
    posts: (await session.forums.posts(sandbox.samples.busyTopic).all()).length,
  }));
  const okB = figures('(b) the busy topic, one walk', busy);

  const start = await best(3, async () => (await startSandbox()).close());
  const sandbox = await startSandbox();
  const usernames = [...Array(60)].map((_, i) => `author${i}`);
  await sandbox.close();
  const generate = await best(3, async () =>
    seedForums({ seed: 1, usernames: () => usernames, now: () => Date.now() }),
  );
  report(
    '(c) forum generation vs sandbox start-up',
    generate.ms / start.ms,
    undefined,
    `start-up ${fmt(start.ms)} (best of 3, forums not generated), generation ${fmt(generate.ms)} paid by the first forum request`,
  );
  return okA && okB;
}
