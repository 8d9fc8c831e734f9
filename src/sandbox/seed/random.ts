/**
 * A small seeded PRNG (mulberry32) and helpers, so the sandbox's data is identical for one seed
 * on every machine and every run. `Math.random` is never used for seed data.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    // Mix the seed once so that neighbouring seeds (1, 2, 3) give unrelated streams.
    this.state = Math.imul((seed | 0) ^ 0x5bd1e995, 0x9e3779b1) >>> 0;
    for (let i = 0; i < 4; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Up to `n` distinct items, in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, n));
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** A heavy-tailed positive integer around `median` (log-normal), as view counts are. */
  skewed(median: number, spread = 1.2): number {
    // Box-Muller for a standard normal draw.
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.max(0, Math.round(median * Math.exp(z * spread)));
  }

  /** A time (ms since the epoch) between `from` and `to`. */
  time(from: number, to: number): number {
    return from + Math.floor(this.next() * Math.max(0, to - from));
  }

  /** `n` lowercase hex digits. */
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }

  /** `n` characters from `alphabet`. */
  chars(n: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}
