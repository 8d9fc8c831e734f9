import type { Router } from '../router.js';

/**
 * `{site}/projects/<id>/remixtree/bare/`: removed from the real service in October 2025, it answers
 * 404 there (WIRE.md §11.3), so it does here too, as a page, not JSON. Clients build the tree from
 * `remix.root` and `/remixes` instead.
 */
export function remixTreeRoutes(router: Router): void {
  router.get('/projects/:id/remixtree/bare', () => ({
    status: 404,
    body: '<!DOCTYPE html>\n<html><head><title>Scratch - Imagine, Program, Share</title></head><body><h1>Page not found</h1></body></html>\n',
    contentType: 'text/html; charset=utf-8',
  }));
}
