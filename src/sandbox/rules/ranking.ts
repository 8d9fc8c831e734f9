import { badRequest } from '../errors.js';
import type { ProjectRow, Store, StudioRow, Tag } from '../state/store.js';
import { TAGS } from '../state/store.js';

/** The orderings of search and explore. */
type Mode = 'popular' | 'trending';

/** Search and explore filters, read from the query string. */
interface Filter {
  q: string;
  mode: Mode;
  /** `null` when the request named no language: every language then. */
  language: string | null;
}

/** Reads `mode` and `language`; an unknown mode or a malformed language code is a 400. */
export function parseFilter(query: URLSearchParams, defaultQ: string): Filter {
  const mode = query.get('mode') || 'popular';
  if (mode !== 'popular' && mode !== 'trending') {
    throw badRequest(`mode must be "popular" or "trending", got ${JSON.stringify(mode)}`);
  }
  const language = query.get('language') || null;
  if (language !== null && !/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/.test(language)) {
    throw badRequest(`language must be a language code such as "en" or "pt-br"`);
  }
  const q = query.get('q') ?? defaultQ;
  if (q.length > 200) throw badRequest('q must be at most 200 characters');
  return { q: q.trim(), mode, language: language?.toLowerCase() ?? null };
}

const DAY = 86_400_000;

/**
 * How much a thing trends: its recent activity, decaying with the days since it last happened.
 * Age is measured from the seed's reference "now" (later activity, such as an edit, counts as
 * age 0), so the ranking does not drift with the wall clock and stays deterministic.
 */
function trendScore(recent: number, total: number, lastActivity: string, now: number): number {
  const ageDays = Math.max(0, now - Date.parse(lastActivity)) / DAY;
  return (recent + total * 0.01 + 1) / (1 + ageDays / 3) ** 1.5;
}

/** Sorts by the scores, compared in turn (highest first); ties go to the newer (higher) id. */
function order<T extends { id: number }>(rows: T[], score: (row: T) => number[]): T[] {
  const scored = rows.map((row) => ({ row, score: score(row) }));
  scored.sort((a, b) => {
    for (let i = 0; i < a.score.length; i++) {
      const diff = b.score[i]! - a.score[i]!;
      if (diff !== 0) return diff;
    }
    return b.row.id - a.row.id;
  });
  return scored.map((s) => s.row);
}

function textMatches(q: string, fields: string[]): boolean {
  if (q === '') return true;
  const needle = q.toLowerCase();
  return fields.some((f) => f.toLowerCase().includes(needle));
}

/** Explore's q is a category: `*` (or nothing) is everything, an unknown one is nothing. */
function tagMatches(q: string, tags: readonly Tag[]): boolean {
  const tag = q.toLowerCase();
  if (tag === '' || tag === '*') return true;
  return (TAGS as readonly string[]).includes(tag) && tags.includes(tag as Tag);
}

function rankProjects(store: Store, rows: ProjectRow[], mode: Mode): ProjectRow[] {
  if (mode === 'popular') return order(rows, (p) => [p.loves, p.views]);
  return order(rows, (p) => [trendScore(p.recentLoves, p.loves, p.lastActivity, store.seedNow)]);
}

function rankStudios(store: Store, rows: StudioRow[], mode: Mode): StudioRow[] {
  if (mode === 'popular') return order(rows, (s) => [s.followers, s.projects.length]);
  return order(rows, (s) => [trendScore(s.recentActivity, s.followers, s.lastActivity, store.seedNow)]);
}

function sharedProjects(store: Store, filter: Filter): ProjectRow[] {
  return [...store.projects.values()].filter(
    (p) => p.shared !== null && (filter.language === null || p.language === filter.language),
  );
}

function studios(store: Store, filter: Filter): StudioRow[] {
  return [...store.studios.values()].filter(
    (s) => filter.language === null || s.language === filter.language,
  );
}

/** `/search/projects`: q in title, description or instructions, case-insensitive. */
export function searchProjects(store: Store, filter: Filter): ProjectRow[] {
  const rows = sharedProjects(store, filter).filter((p) =>
    textMatches(filter.q, [p.title, p.description, p.instructions]),
  );
  return rankProjects(store, rows, filter.mode);
}

/** `/explore/projects`: q is a category. */
export function exploreProjects(store: Store, filter: Filter): ProjectRow[] {
  return rankProjects(
    store,
    sharedProjects(store, filter).filter((p) => tagMatches(filter.q, p.tags)),
    filter.mode,
  );
}

/** `/search/studios`: q in title or description. */
export function searchStudios(store: Store, filter: Filter): StudioRow[] {
  return rankStudios(
    store,
    studios(store, filter).filter((s) => textMatches(filter.q, [s.title, s.description])),
    filter.mode,
  );
}

/** `/explore/studios`: q is a category. */
export function exploreStudios(store: Store, filter: Filter): StudioRow[] {
  return rankStudios(
    store,
    studios(store, filter).filter((s) => tagMatches(filter.q, s.tags)),
    filter.mode,
  );
}
