/**
 * The forums' pages and feeds in the markup WIRE.md §12.1 gives (the class names of the real
 * site's DjangoBB templates): the index, a category's topic list, a topic's posts, a topic's
 * Atom feed. Times are written as the site writes them, in its time zone, relative to now.
 */
import { formatForumTime, SITE_TIME_ZONE } from '../../records/forum-time.js';
import { escapeHtml } from '../../records/html.js';
import type { ForumCategoryRow, ForumPostRow, ForumTopicRow } from '../state/forum-state.js';

/** Topics on a category page, posts on a topic page, entries of a feed (the site's sizes). */
export const TOPICS_PER_PAGE = 25;
export const POSTS_PER_PAGE = 20;
export const FEED_ENTRIES = 15;

const when = (ms: number, now: number): string => formatForumTime(new Date(ms), SITE_TIME_ZONE, now);
const count = (n: number): string => n.toLocaleString('en-US');
const userLink = (name: string): string =>
  `<a class="black username" href="/users/${encodeURIComponent(name)}/">${escapeHtml(name)}</a>`;

/** The forum's own menu, above every page's breadcrumb (the first `<ul>` of `div.djangobb`). */
const NAV =
  '<ul class="navlinks"><li><a href="/discuss/">Discussion Home</a></li><li><a href="/discuss/search/">Search</a></li></ul>';

function page(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)} - Discuss Scratch</title></head>\n<body><div id="djangobbindex" class="djangobb">\n${body}\n</div></body></html>\n`;
}

/** The pagination bar: the current page as a span, the others as links, gaps as "…". */
function pagination(current: number, pages: number): string {
  const shown = [
    ...new Set([1, 2, current - 2, current - 1, current, current + 1, current + 2, pages - 1, pages]),
  ]
    .filter((p) => p >= 1 && p <= pages)
    .sort((a, b) => a - b);
  const parts: string[] = [];
  let previous = 0;
  for (const p of shown) {
    if (p > previous + 1) parts.push('<span class="page-dots">…</span>');
    parts.push(
      p === current ? `<span class="current page">${p}</span>` : `<a class="page" href="?page=${p}">${p}</a>`,
    );
    previous = p;
  }
  if (current < pages) parts.push(`<a class="next" href="?page=${current + 1}">Next &raquo;</a>`);
  return `<div class="pagination">${parts.join(' ')}</div>`;
}

function lastPostCell(post: ForumPostRow | undefined, now: number): string {
  if (!post) return '<td class="tcr">Never</td>';
  return `<td class="tcr"><a href="/discuss/post/${post.id}/">${when(post.time, now)}</a> <span class="byuser">by ${escapeHtml(post.author)}</span></td>`;
}

/** The index `/discuss/`: a box per group, a row per category. */
export function forumIndexHtml(
  categories: readonly ForumCategoryRow[],
  topicsOf: (id: number) => readonly ForumTopicRow[],
  now: number,
): string {
  const groups = [...new Set(categories.map((c) => c.group))];
  const boxes = groups.map((group) => {
    const rows = categories
      .filter((c) => c.group === group)
      .map((c) => {
        const topics = topicsOf(c.id);
        const posts = topics.reduce((sum, t) => sum + t.posts.length, 0);
        const last = topics
          .map((t) => t.posts.at(-1)!)
          .reduce<ForumPostRow | undefined>((a, b) => (!a || b.time > a.time ? b : a), undefined);
        return `<tr><td class="tcl"><div class="intd"><div class="icon"><div class="nosize"><!-- --></div></div><div class="tclcon"><h3><a href="/discuss/${c.id}/">${escapeHtml(c.name)}</a></h3>${escapeHtml(c.description)}</div></div></td><td class="tc2">${count(topics.length)}</td><td class="tc3">${count(posts)}</td>${lastPostCell(last, now)}</tr>`;
      });
    return `<div id="idx${groups.indexOf(group) + 1}" class="blocktable"><div class="box"><div class="box-head"><h4>${escapeHtml(group)}</h4></div><div class="box-content"><table cellspacing="0"><thead><tr><th class="tcl">Forum</th><th class="tc2">Topics</th><th class="tc3">Posts</th><th class="tcr">Last post</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div></div></div>`;
  });
  return page('Discussion Forums', boxes.join('\n'));
}

/** A category's page `n` (from 1) of `pages`: its heading, pagination and topic rows. */
export function topicListHtml(
  category: ForumCategoryRow,
  topics: readonly ForumTopicRow[],
  pageNumber: number,
  pages: number,
  now: number,
): string {
  const rows = topics.map((t) => {
    const icon = t.sticky ? 'icon sticky' : t.closed ? 'icon closed' : 'icon';
    const first = t.posts[0]!;
    return `<tr><td class="tcl"><div class="intd"><div class="${icon}"><div class="nosize"><!-- --></div></div><div class="tclcon">${t.sticky ? 'Sticky: ' : ''}<h3><a href="/discuss/topic/${t.id}/">${escapeHtml(t.title)}</a></h3> <span class="byuser">by ${escapeHtml(first.author)}</span></div></div></td><td class="tc2">${count(t.posts.length - 1)}</td><td class="tc3">${count(t.views)}</td>${lastPostCell(t.posts.at(-1), now)}</tr>`;
  });
  const body =
    rows.length > 0 ? rows.join('\n') : '<tr><td class="djangobbcon1" colspan="4">Forum is empty.</td></tr>';
  return page(
    category.name,
    `${NAV}
<div class="linkst"><div class="inbox">${pagination(pageNumber, pages)}<ul><li><a href="/discuss/">Discussion Forums</a></li><li>&raquo; ${escapeHtml(category.name)}</li></ul></div></div>
<div id="vf" class="blocktable"><div class="box"><div class="box-head"><h4><span>${escapeHtml(category.name)}</span></h4></div><div class="box-content">
<table cellspacing="0"><thead><tr><th class="tcl">Topic</th><th class="tc2">Replies</th><th class="tc3">Views</th><th class="tcr">Last post</th></tr></thead><tbody>
${body}
</tbody></table></div></div></div>`,
  );
}

/** A topic's page `n` (from 1) of `pages`: breadcrumb, pagination and a `div.blockpost` per post. */
export function postPageHtml(
  category: ForumCategoryRow,
  topic: ForumTopicRow,
  posts: readonly ForumPostRow[],
  firstIndex: number,
  pageNumber: number,
  pages: number,
  now: number,
): string {
  const blocks = posts.map((post, i) => {
    const index = firstIndex + i;
    const edit = post.edited
      ? `<p class="postedit"><em class="posteditmessage">Last edited by ${escapeHtml(post.edited.by)} (${when(post.edited.time, now)})</em></p>`
      : '';
    return `<div id="p${post.id}" class="blockpost ${index % 2 === 0 ? 'roweven' : 'rowodd'}${index === 1 ? ' firstpost' : ''}"><a name="post-${post.id}"></a><div class="box">
<div class="box-head"><span class="conr">#${index}</span><a href="/discuss/post/${post.id}/">${when(post.time, now)}</a></div>
<div class="box-content"><div class="postleft"><dl><dt>${userLink(post.author)}</dt><dd class="postavatar"><img src="/get_image/user/0_60x60.png" width="60" height="60"></dd><dd>Scratcher</dd></dl></div>
<div class="postright"><h3>${index === 1 ? '' : 'Re: '}${escapeHtml(topic.title)}</h3><div class="postmsg"><div class="post_body_html">${post.html}</div>${edit}</div></div></div>
</div></div>`;
  });
  const crumbs = `<div class="linkst"><div class="inbox">${pagination(pageNumber, pages)}<ul><li><a href="/discuss/">Discussion Forums</a></li><li>&raquo; <a href="/discuss/${category.id}/">${escapeHtml(category.name)}</a></li><li>&raquo; ${escapeHtml(topic.title)}</li></ul></div></div>`;
  return page(topic.title, `${NAV}\n${crumbs}\n${blocks.join('\n')}`);
}

const xml = (text: string): string => escapeHtml(text);

/** A topic's Atom feed: its newest posts, newest first. */
export function topicFeedXml(base: string, category: ForumCategoryRow, topic: ForumTopicRow): string {
  const newest = topic.posts.slice(-FEED_ENTRIES).reverse();
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const entries = newest.map((post) => {
    const link = `${base}/discuss/post/${post.id}/`;
    return `<entry><title>${xml(`Discussion Forums :: ${category.name} :: ${topic.title}`)}</title><link href="${xml(link)}" rel="alternate"></link><published>${iso(post.time)}</published><updated>${iso(post.edited?.time ?? post.time)}</updated><author><name>${xml(post.author)}</name></author><id>${xml(link)}</id><summary type="html">${xml(post.html)}</summary></entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-us"><title>${xml(`Latest posts on ${topic.title}`)}</title><link href="${xml(`${base}/discuss/topic/${topic.id}/`)}" rel="alternate"></link><link href="${xml(`${base}/discuss/feeds/topic/${topic.id}/`)}" rel="self"></link><id>${xml(`${base}/discuss/topic/${topic.id}/`)}</id><updated>${iso(Math.max(...newest.map((p) => p.edited?.time ?? p.time)))}</updated>
${entries.join('\n')}
</feed>
`;
}
