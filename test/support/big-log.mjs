// A large cloud log made the same way every run: for the presentation tests (through
// test/presentation/records.ts) and the presentation benchmark (test/bench/), which runs as plain
// JavaScript against dist/.

/** A deterministic pseudo-random generator (mulberry32), so big logs are the same every run. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` log entries over `hours`, newest first as on the wire, across a few variables and users. */
export function bigLog(n, hours = 24) {
  const rnd = random(12345);
  const start = Date.UTC(2024, 4, 1, 0, 0, 0);
  const step = (hours * 3_600_000) / n;
  const users = Array.from({ length: 50 }, (_, i) => `player${i}`);
  const out = [];
  for (let i = 0; i < n; i++) {
    const r = rnd();
    const name = r < 0.6 ? 'score' : r < 0.85 ? 'level' : r < 0.95 ? 'players online' : 'chat';
    const value =
      name === 'chat'
        ? `36294343497620664955432777${i}`
        : String(Math.floor(rnd() * (name === 'level' ? 10 : 10_000)));
    const user = users[Math.floor(rnd() ** 2 * users.length)];
    out.push({ user, verb: 'set', name, value, timestamp: Math.floor(start + i * step) });
  }
  return out.reverse();
}
