import type { SandboxContext } from '../context.js';
import type { Reply } from '../http-utils.js';
import type { Router } from '../router.js';
import type { ForumState } from '../state/forum-state.js';
import {
  forumIndexHtml,
  POSTS_PER_PAGE,
  postPageHtml,
  TOPICS_PER_PAGE,
  topicFeedXml,
  topicListHtml,
} from '../views/forum-html.js';

const html = (body: string, status = 200): Reply => ({
  status,
  body,
  contentType: 'text/html; charset=utf-8',
});
const notFoundPage = (): Reply =>
  html('<!DOCTYPE html>\n<html><body><h1>Page not found</h1></body></html>\n', 404);

/**
 * `?page=N` as Django's paginator reads it: absent is 1; a number from 1 to `pages`; anything
 * else (0, past the end, not a number) is `null`, answered 404 as the site does.
 */
function pageOf(query: URLSearchParams, pages: number): number | null {
  const text = query.get('page');
  if (text === null || text === '') return 1;
  if (!/^\d{1,6}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= Math.max(1, pages) ? n : null;
}

/**
 * The forums (WIRE.md §12.1), no login: the index, a category's topics, a topic's posts (HTML),
 * a post's link (a redirect to its topic's page) and a topic's Atom feed. Unknown ids and pages out of range answer the site's 404 page.
 */
export function forumRoutes(router: Router, ctx: SandboxContext, forums: ForumState): void {
  const categoryOf = (id: number) => forums.data.categories.find((c) => c.id === id);
  const idOf = (text: string | undefined) =>
    text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : null;

  router.get('/discuss', () => {
    const { categories, topicsByCategory } = forums.data;
    return html(forumIndexHtml(categories, (id) => topicsByCategory.get(id) ?? [], Date.now()));
  });

  router.get('/discuss/:id', (req) => {
    const id = idOf(req.params.id);
    const category = id === null ? undefined : categoryOf(id);
    if (!category) return notFoundPage();
    const topics = forums.data.topicsByCategory.get(category.id) ?? [];
    const pages = Math.ceil(topics.length / TOPICS_PER_PAGE);
    const n = pageOf(req.query, pages);
    if (n === null) return notFoundPage();
    const rows = topics.slice((n - 1) * TOPICS_PER_PAGE, n * TOPICS_PER_PAGE);
    return html(topicListHtml(category, rows, n, Math.max(1, pages), Date.now()));
  });

  router.get('/discuss/topic/:id', (req) => {
    const id = idOf(req.params.id);
    const topic = id === null ? undefined : forums.data.topics.get(id);
    const category = topic && categoryOf(topic.categoryId);
    if (!topic || !category) return notFoundPage();
    const pages = Math.ceil(topic.posts.length / POSTS_PER_PAGE);
    const n = pageOf(req.query, pages);
    if (n === null) return notFoundPage();
    const start = (n - 1) * POSTS_PER_PAGE;
    const rows = topic.posts.slice(start, start + POSTS_PER_PAGE);
    return html(postPageHtml(category, topic, rows, start + 1, n, pages, Date.now()));
  });

  // A post's own link (the last-post links of the lists): the page of its topic that holds it.
  router.get('/discuss/post/:id', (req) => {
    const id = idOf(req.params.id);
    for (const topic of id === null ? [] : forums.data.topics.values()) {
      const index = topic.posts.findIndex((p) => p.id === id);
      if (index < 0) continue;
      const location = `/discuss/topic/${topic.id}/?page=${Math.floor(index / POSTS_PER_PAGE) + 1}#post-${id}`;
      return {
        status: 302,
        body: '',
        contentType: 'text/html; charset=utf-8',
        headers: { Location: location },
      };
    }
    return notFoundPage();
  });

  // A post's BBCode as plain text (`get_post_source` of the forum's views).
  router.get('/discuss/post/:id/source', (req) => {
    const id = idOf(req.params.id);
    for (const topic of id === null ? [] : forums.data.topics.values()) {
      const post = topic.posts.find((p) => p.id === id);
      if (post) return { status: 200, body: post.source, contentType: 'text/plain; charset=utf-8' };
    }
    return notFoundPage();
  });

  router.get('/discuss/feeds/topic/:id', (req) => {
    const id = idOf(req.params.id);
    const topic = id === null ? undefined : forums.data.topics.get(id);
    const category = topic && categoryOf(topic.categoryId);
    if (!topic || !category) return notFoundPage();
    return {
      status: 200,
      body: topicFeedXml(ctx.hosts.site, category, topic),
      contentType: 'application/atom+xml; charset=utf-8',
    };
  });
}
