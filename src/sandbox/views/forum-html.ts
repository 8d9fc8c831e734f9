/**
 * The forums' pages and feeds in the live site's markup (WIRE.md §12.7): the forum's own DjangoBB
 * templates (`scratchfoundation/s2forums` `forum.html`, `topic.html`, `index.html`,
 * `forum_row.html`, `header.html`) and django-pagination's bar, as `test/fixtures/live/` renders
 * them, including what live readers must survive: the stray `</div>` in each topic row, the
 * "Toggle shoutbox" link in each group's heading, counts in plain digits, Django's natural days.
 * Times are written as the site writes them, in its time zone, relative to now. Pages are drawn
 * as a visitor without a login sees them.
 */
import { formatForumTime, SITE_TIME_ZONE } from '../../records/forum-time.js';
import { escapeHtml } from '../../records/html.js';
import type { ForumCategoryRow, ForumPostRow, ForumTopicRow } from '../state/forum-state.js';

/** Topics on a category page, posts on a topic page, entries of a feed (the site's sizes). */
export const TOPICS_PER_PAGE = 25;
export const POSTS_PER_PAGE = 20;
export const FEED_ENTRIES = 15;

const when = (ms: number, now: number): string => formatForumTime(new Date(ms), SITE_TIME_ZONE, now);
const feedIcon = (href: string, cls: string): string =>
  `<a href="${href}"><img src="/static/djangobb_forum/img/feed-icon-small.png" alt="[RSS Feed]" title="[RSS Feed]" class="${cls}" /></a>`;

/** The page around the forum: the forum's header (`header.html`) and footer (`base.html`). */
function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html>
<head>
<meta http-equiv="content-type" content="text/html; charset=utf-8" />
<title>${escapeHtml(title)} - Discuss Scratch</title>
</head>
<body>
<div id="pagewrapper">
<div id="content">
<div id="djangobbwrap">
<div id="djangobbindex" class="djangobb">
<div id="brdheader" class="box">
  <div class="box-head">
    <h2>Discuss Scratch</h2>
    <p><span></span></p>
  </div>
  <div id="brdmenu" class="box-content">
    <ul>
      <li id="navindex"><a href="/discuss/">Discussion Home</a></li>
      <li id="navsearch"><a href="/discuss/search/">Search</a></li>
    </ul>
  </div>
</div>
${body}
<div id="brdfooter" class="box">
  <div class="box-content">
    <p class="foot conr">Powered by <a href="http://djangobb.org/">DjangoBB</a></p>
    <div class="clearer"></div>
  </div>
</div>
</div>
</div>
</div>
</div>
</body>
</html>
`;
}

/**
 * django-pagination's bar: `‹‹ previous` and `next ››` (disabled as spans at the ends), the
 * current page as `span.current.page`, the others as `a.page`, gaps as `...`. No bar at all
 * when there is one page.
 */
function pagination(current: number, pages: number): string {
  if (pages <= 1) return '';
  const shown = [
    ...new Set([1, 2, current - 2, current - 1, current, current + 1, current + 2, pages - 1, pages]),
  ]
    .filter((p) => p >= 1 && p <= pages)
    .sort((a, b) => a - b);
  const parts: string[] = [
    current > 1
      ? `<a href="?page=${current - 1}" class="prev">&lsaquo;&lsaquo; previous</a>`
      : '<span class="disabled prev">&lsaquo;&lsaquo; previous</span>',
  ];
  let previous = 0;
  for (const p of shown) {
    if (p > previous + 1) parts.push('...');
    parts.push(
      p === current ? `<span class="current page">${p}</span>` : `<a href="?page=${p}" class="page">${p}</a>`,
    );
    previous = p;
  }
  parts.push(
    current < pages
      ? `<a href="?page=${current + 1}" class="next">next &rsaquo;&rsaquo;</a>`
      : '<span class="disabled next">next &rsaquo;&rsaquo;</span>',
  );
  return `<div class="pagination">\n    ${parts.join('\n    ')}\n</div>`;
}

/** The box content of a list (the index's groups, a category's topics): its head and rows. */
function listTable(heads: readonly [string, string, string], rows: string): string {
  const [first, second, third] = heads;
  return `<div class="box-content">
    <table cellspacing="0">
      <thead>
        <tr>
          <th class="tcl" scope="col">${first}</th>
          <th class="tc2" scope="col">${second}</th>
          <th class="tc3" scope="col">${third}</th>
          <th class="tcr" scope="col">Last Post</th>
        </tr>
      </thead>
      <tbody>
${rows}
      </tbody>
    </table>
  </div>`;
}

function byUser(name: string): string {
  return `<span class="byuser">by ${escapeHtml(name)}</span>`;
}

/** The index `/discuss/`: a box per group (its heading starts with the toggle link), a row per category. */
export function forumIndexHtml(
  categories: readonly ForumCategoryRow[],
  topicsOf: (id: number) => readonly ForumTopicRow[],
  now: number,
): string {
  const groups = [...new Set(categories.map((c) => c.group))];
  const boxes = groups.map((group, g) => {
    const rows = categories
      .filter((c) => c.group === group)
      .map((c) => {
        const topics = topicsOf(c.id);
        const posts = topics.reduce((sum, t) => sum + t.posts.length, 0);
        const last = topics
          .map((t) => t.posts.at(-1)!)
          .reduce<ForumPostRow | undefined>((a, b) => (!a || b.time > a.time ? b : a), undefined);
        const lastCell = last
          ? `<a href="/discuss/post/${last.id}/">${when(last.time, now)}</a>\n      ${byUser(last.author)}`
          : '';
        return `<tr>
  <td class="tcl">
    <div class="intd">
      <div class="forumicon">
        <div class="nosize"><!-- --></div>
      </div>
      <div class="tclcon">
        <h3><a href="/discuss/${c.id}/">${escapeHtml(c.name)}</a>
          ${feedIcon(`/discuss/feeds/forum/${c.id}/`, 'rss')}
        </h3>
        ${c.description}
      </div>
    </div>
  </td>
  <td class="tc2">${topics.length}</td>
  <td class="tc3">${posts}</td>
  <td class="tcr">
      ${lastCell}
  </td>
</tr>`;
      });
    return `<div class="box" id="category_body_${g + 1}">
  <div class="box-head">
    <h4 id="category_head_${g + 1}">
      <a class="toggle" href="#">Toggle shoutbox</a>
      ${escapeHtml(group)}
    </h4>
  </div>
  ${listTable(['Forum', 'Topics', 'Posts'], rows.join('\n'))}
</div>`;
  });
  return page('Discuss Scratch', `<div id="idx1" class="blocktable">\n${boxes.join('\n')}\n</div>`);
}

/** The icon class of a topic row, as `forum.html` chooses it (no unread marks without a login). */
function iconClass(topic: ForumTopicRow): string {
  if (topic.sticky) return topic.closed ? 'isticky iclosed' : 'isticky';
  return topic.closed ? 'iclosed' : 'forumicon';
}

/** The breadcrumb of a category page (`linkst` above the table, `linksb` below). */
function categoryLinks(kind: 'linkst' | 'linksb', category: ForumCategoryRow, bar: string): string {
  return `<div class="${kind}">
    ${bar}
    <ul>
        <li><a href="/discuss/">Discussion Forums</a></li>
        <li>
            &raquo; ${escapeHtml(category.name)} ${feedIcon(`/discuss/feeds/forum/${category.id}/`, 'breadcrumb_rss')}
        </li>
    </ul>
</div>`;
}

/**
 * A category's page `n` (from 1) of `pages`: breadcrumbs, heading, and a row per topic. Each
 * row's first cell closes one `</div>` too many, as the live template does.
 */
export function topicListHtml(
  category: ForumCategoryRow,
  topics: readonly ForumTopicRow[],
  pageNumber: number,
  pages: number,
  now: number,
): string {
  const rows = topics.map((t) => {
    const first = t.posts[0]!;
    const last = t.posts.at(-1)!;
    return `<tr>
    <td class="tcl">
        <div class="intd">
            <div class="nosize"><!-- --></div>
            </div>

            <div class="${iconClass(t)}"><div class="nosize"><!-- --></div></div>
            <div class="tclcon${t.closed ? ' closed-topic' : ''}">
                ${t.sticky ? 'Sticky:' : ''}
                <h3 class="topic_isread"><a href="/discuss/topic/${t.id}/">${escapeHtml(t.title)}</a></h3>
                ${byUser(first.author)}
            </div>
        </div>
    </td>
    <td class="tc2">${t.posts.length - 1}</td>
    <td class="tc3">${t.views}</td>
    <td class="tcr"><a href="/discuss/post/${last.id}/">${when(last.time, now)}</a> ${byUser(last.author)}</td>
</tr>`;
  });
  const body =
    rows.length > 0 ? rows.join('\n') : '<tr><td class="djangobbcon1" colspan="4">Forum is empty.</td></tr>';
  const bar = pagination(pageNumber, pages);
  return page(
    category.name,
    `${categoryLinks('linkst', category, bar)}
<div id="vf" class="blocktable">
  <div class="box">
    <div class="box-head">
      <h4>
        <span>${escapeHtml(category.name)}</span>
      </h4>
    </div>
    ${listTable(['Topic', 'Replies', 'Views'], body)}
  </div>
</div>
${categoryLinks('linksb', category, bar)}
<!-- end forum code -->`,
  );
}

/** The "Follow Discussion" buttons of an open topic. */
function follow(where: 'top' | 'bottom', topic: ForumTopicRow): string {
  if (topic.closed) return '';
  return `<div class="follow-topic ${where}">
    <img src="/static/images/ajax-loader.gif" class="loading" style="display: none;" alt="loading..." />
    <p class="error" style="display: none;">There was an error :( Try again?</p>
    <a class="follow-button button blue" href="/discuss/subscription/topic/${topic.id}/add/" title="Follow this discussion to get a message when there&#39;s a new post">Follow Discussion</a>
    <a style="display: none;" class="unfollow-button button grey" href="/discuss/subscription/topic/${topic.id}/delete/" title="Stop getting messages about new posts to this discussion">Unfollow Discussion</a>
</div>`;
}

/** A topic's page `n` (from 1) of `pages`: breadcrumbs, pagination and a `div.blockpost` per post. */
export function postPageHtml(
  category: ForumCategoryRow,
  topic: ForumTopicRow,
  posts: readonly ForumPostRow[],
  firstIndex: number,
  pageNumber: number,
  pages: number,
  now: number,
): string {
  const title = escapeHtml(topic.title);
  const blocks = posts.map((post, i) => {
    const edit = post.edited
      ? `<p class="postedit"><em class="posteditmessage">Last edited by ${escapeHtml(post.edited.by)} (${when(post.edited.time, now)})</em></p>`
      : '';
    const author = encodeURIComponent(post.author);
    return `<div id="p${post.id}" class="blockpost roweven firstpost">
    <a name="post-${post.id}"></a>
    <div class="box">
        <div class="box-head">
            <span class="conr">#${firstIndex + i}</span><a href="/discuss/post/${post.id}/">${when(post.time, now)}</a>
        </div>
        <div class="box-content">
            <div class="postleft">
                <dl>
                    <dt><a class="black username" href="/users/${author}/">${escapeHtml(post.author)}</a></dt>
                    <dd class="postavatar">
                        <a href="/users/${author}/"><img src="/get_image/user/0_90x90.png" width="90" height="90"></a>
                    </dd>
                    Scratcher
                    <br>
                    100+ posts
                </dl>
            </div>
            <div class="postright">
                <h3>${title}</h3>
                <div class="postmsg">
                    <div class="post_body_html">${post.html}</div>
                    ${edit}
                </div>
            </div>
            <div class="clearer"></div>
            <div class="postfootleft"></div>
            <div class="postfootright">
                <ul></ul>
            </div>
        </div>
    </div>
</div>`;
  });
  const bar = pagination(pageNumber, pages);
  const feed = feedIcon(`/discuss/feeds/topic/${topic.id}/`, 'breadcrumb_rss');
  return page(
    topic.title,
    `<div class="linkst">
    ${follow('top', topic)}
    ${bar}
    <ul>
        <li><a href="/discuss/">Discussion Forums</a> </li><li>&raquo; <a href="/discuss/${category.id}/">${escapeHtml(category.name)}</a> </li><li>&raquo; ${title}
        ${feed}
        </li>
    </ul>
</div>
${blocks.join('\n')}
<div class="linksb">
    ${bar}
    <ul>
        <li><a href="/discuss/">Discussion Forums</a></li>
        <li>&raquo; <a href="/discuss/${category.id}/">${escapeHtml(category.name)}</a> </li>
        <li>
            &raquo; ${title} ${feed}
        </li>
    </ul>
    ${follow('bottom', topic)}
    <div class="clearer"></div>
</div>`,
  );
}

const xml = (text: string): string => escapeHtml(text);

/**
 * A topic's Atom feed, as Django's `Atom1Feed` writes the forum's `LastPostsOnTopic`: its newest
 * posts, newest first; an entry's title is "<group> :: <category> :: <topic>", its `<id>` the
 * bare post id, its `<updated>` the post's time.
 */
export function topicFeedXml(base: string, category: ForumCategoryRow, topic: ForumTopicRow): string {
  const newest = topic.posts.slice(-FEED_ENTRIES).reverse();
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const entries = newest.map((post) => {
    const link = `${base}/discuss/post/${post.id}/`;
    return `<entry><title>${xml(`${category.group} :: ${category.name} :: ${topic.title}`)}</title><link href="${xml(link)}" rel="alternate"></link><updated>${iso(post.time)}</updated><author><name>${xml(post.author)}</name></author><id>${post.id}</id><summary type="html">${xml(post.html)}</summary></entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-us"><title>${xml(`Latest posts on ${topic.title}`)}</title><link href="${xml(`${base}/discuss/topic/${topic.id}/`)}" rel="alternate"></link><link href="${xml(`${base}/discuss/feeds/topic/${topic.id}/`)}" rel="self"></link><id>${xml(`${base}/discuss/topic/${topic.id}/`)}</id><updated>${iso(Math.max(...newest.map((p) => p.time)))}</updated><subtitle>${xml(`Latest posts on the topic "${topic.title}"`)}</subtitle>${entries.join('')}</feed>
`;
}
