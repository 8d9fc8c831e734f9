/**
 * The sandbox's forum pages hold what WIRE.md §12.1 says a page must hold for the Python client's
 * readers: each check below follows one of scratchattach's lookups (the first `h4 > span`, every
 * `<tr>` after the first, the second `<ul>`'s second link, `div.blockpost` ids, the feed's
 * namespaced elements), run on the raw pages fetched over loopback.
 */
import { fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  childElements,
  classesOf,
  findElement,
  findElements,
  parseHtml,
  parseXml,
  textOf,
} from '../../src/records/html.js';
import { forumStates } from '../../src/sandbox/state/forum-state.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();
const get = async (path: string) => {
  const answer = await fetch(`${ctx.sandbox.url}${path}`);
  return { status: answer.status, type: answer.headers.get('content-type') ?? '', text: await answer.text() };
};

describe('forum pages in the shapes of WIRE §12.1', () => {
  it('a category page: h4 > span, one table, rows of four cells with /<id>/ links (§12.1.1)', async () => {
    const id = ctx.sandbox.samples.forumCategory;
    const page = await get(`/discuss/${id}/`);
    expect(page.type).toBe('text/html; charset=utf-8');
    const doc = parseHtml(page.text);
    expect(textOf(findElement(findElement(doc, { tag: 'h4' })!, { tag: 'span' })!)).toBe('Advanced Topics');
    expect(findElements(doc, { tag: 'table' })).toHaveLength(1);
    const rows = findElements(doc, { tag: 'tr' }).slice(1);
    expect(rows).toHaveLength(25);
    const topics = forumStates.of(ctx.sandbox).data.topicsByCategory.get(id)!;
    rows.forEach((row, i) => {
      const href = findElement(row, { tag: 'a' })!.attribs.href!;
      expect(Number(href.split('/').at(-2))).toBe(topics[i]!.id);
      const cells = childElements(row).map((td) => textOf(td));
      expect(cells).toHaveLength(4);
      expect(classesOf(childElements(row)[0]!)).toEqual(['tcl']);
      expect(cells[1]).toBe(String(topics[i]!.posts.length - 1));
      // "Today 10:11:12", "Yesterday …" or "Sept. 3, 2024 10:11:12", then "by <author>".
      expect(cells[3]).toMatch(
        /^(Today|Yesterday|Tomorrow|(Jan\.|Feb\.|March|April|May|June|July|Aug\.|Sept\.|Oct\.|Nov\.|Dec\.) \d{1,2}, \d{4}) (\d{2}:\d{2}:\d{2} )by \S+$/,
      );
    });
    expect(rows.filter((r) => findElement(r, { className: 'isticky' })).length).toBe(
      topics.slice(0, 25).filter((t) => t.sticky).length,
    );
  });

  it('a topic page: div.djangobb, the pagination, the breadcrumb, post blocks (§12.1.2)', async () => {
    const busy = ctx.sandbox.samples.busyTopic;
    const topic = forumStates.of(ctx.sandbox).data.topics.get(busy)!;
    const doc = parseHtml((await get(`/discuss/topic/${busy}/?page=2`)).text);
    const djangobb = findElement(doc, { tag: 'div', className: 'djangobb' })!;
    const pagination = findElement(djangobb, { tag: 'div', className: 'pagination' })!;
    expect(Number(textOf(findElements(pagination, { tag: 'a', className: 'page' }).at(-1)!))).toBe(63);
    expect(textOf(findElement(pagination, { className: 'current' })!)).toBe('2');
    const crumb = findElements(findElements(djangobb, { tag: 'ul' })[1]!, { tag: 'a' })[1]!;
    expect(textOf(crumb)).toBe('Suggestions');
    const blocks = findElements(doc, { tag: 'div', className: 'blockpost' });
    expect(blocks).toHaveLength(20);
    blocks.forEach((block, i) => {
      const post = topic.posts[20 + i]!;
      expect(block.attribs.id).toBe(`p${post.id}`);
      expect(textOf(findElement(block, { tag: 'span', className: 'conr' })!)).toBe(`#${21 + i}`);
      const dateLink = findElements(block, { tag: 'a', attribute: 'href' })[0]!;
      expect(dateLink.attribs.href).toBe(`/discuss/post/${post.id}/`);
      const author = findElement(findElement(findElement(block, { tag: 'dl' })!, { tag: 'dt' })!, {
        tag: 'a',
      })!;
      expect([textOf(author), author.attribs.href]).toEqual([post.author, `/users/${post.author}/`]);
      // Every post's heading is the topic's name, with no "Re:" (WIRE.md §12.7).
      expect(textOf(findElement(block, { tag: 'h3' })!)).toBe(topic.title);
      expect(findElement(block, { tag: 'div', className: 'post_body_html' })).not.toBeNull();
    });
  });

  it('a topic feed: Atom, "Latest posts on …", entries titled "… :: <category> :: <topic>" (§12.1.4)', async () => {
    const busy = ctx.sandbox.samples.busyTopic;
    const page = await get(`/discuss/feeds/topic/${busy}/`);
    expect(page.type).toBe('application/atom+xml; charset=utf-8');
    const doc = parseXml(page.text);
    const feed = findElement(doc, { tag: 'feed' })!;
    expect(feed.attribs.xmlns).toBe('http://www.w3.org/2005/Atom');
    const title = childElements(feed).find((e) => e.name === 'title')!;
    expect(textOf(title)).toMatch(/^Latest posts on /);
    expect(childElements(feed).some((e) => e.name === 'updated')).toBe(true);
    const entries = childElements(feed).filter((e) => e.name === 'entry');
    expect(entries).toHaveLength(15);
    const entryTitle = textOf(childElements(entries[0]!).find((e) => e.name === 'title')!);
    expect(entryTitle.split(' :: ')[1]).toBe('Suggestions');
  });

  it('answers unknown ids and pages out of range with the 404 page, never a crash', async () => {
    for (const path of [
      '/discuss/12345/',
      '/discuss/topic/1/',
      '/discuss/feeds/topic/1/',
      '/discuss/post/1/',
      '/discuss/9999999999999/',
      `/discuss/topic/${ctx.sandbox.samples.busyTopic}/?page=64`,
      '/discuss/31/?page=%00',
    ]) {
      const page = await get(path);
      expect([path, page.status]).toEqual([path, 404]);
      expect(page.type).toContain('text/html');
    }
    expect((await get('/discuss/')).status).toBe(200);
  });
});
