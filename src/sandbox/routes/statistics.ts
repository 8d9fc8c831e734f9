import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { json } from '../http-utils.js';
import type { Router } from '../router.js';
import { dailyAnswer, monthlyAnswer, monthlyGaAnswer } from '../views/statistics-answers.js';

/** The site's statistics, no login (WIRE.md §11.7). */
export function statisticsRoutes(router: Router, ctx: SandboxContext): void {
  const seeded = () => {
    if (!ctx.store.statistics) throw notFound();
    return ctx.store.statistics;
  };
  router.get('/statistics/data/daily', () => json(dailyAnswer(seeded(), ctx.store)));
  router.get('/statistics/data/monthly', () => json(monthlyAnswer(seeded())));
  router.get('/statistics/data/monthly-ga', () => json(monthlyGaAnswer(seeded())));
}
