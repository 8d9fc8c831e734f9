import { badRequest, HttpError } from '../errors.js';
import { bytes, type Reply } from '../http-utils.js';

/** The most pages a `?page=` list may be asked for. */
const MAX_PAGE = 100_000;

/** `?page=N` of the site's lists (1 when missing); anything but a small positive integer is a 400. */
export function parsePageNumber(query: URLSearchParams): number {
  const text = query.get('page');
  if (text === null || text === '') return 1;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > MAX_PAGE) {
    throw badRequest(`page must be an integer between 1 and ${MAX_PAGE}`);
  }
  return Number(text);
}

/**
 * One page of `items` for a site list of `size` rows a page. Past the last page the site (Django's
 * paginator) answers 404; page 1 of an empty list is an empty page.
 */
export function sitePage<T>(items: readonly T[], pageNumber: number, size: number): T[] {
  const start = (pageNumber - 1) * size;
  if (pageNumber > 1 && start >= items.length) throw new HttpError(404, 'NotFound', 'no such page');
  return items.slice(start, start + size);
}

/** An HTML answer of the site. */
export function html(text: string, status = 200): Reply {
  return { ...bytes(text, 'text/html; charset=utf-8'), status };
}
