/**
 * The forums (WIRE.md §12.1), read as the site serves them: HTML pages for the categories, a
 * category's topics and a topic's posts, an Atom feed for a topic. No login needed; every
 * request goes through the session's request budget. Posting is left out on purpose: the
 * site's rules treat it as something people do, not programs.
 */
import { ApiError } from '../errors.js';
import { answerText, readHtmlAnswer } from '../http/html-answer.js';
import type { HttpAnswer } from '../http/http.js';
import { numberedPages } from '../http/numbered-pages.js';
import { PagedList } from '../http/paging.js';
import {
  type ForumClock,
  type PagePosition,
  parseCategories,
  parsePostPage,
  parseTopicFeed,
  parseTopicList,
} from '../records/forum-html.js';
import type { ForumCategory, ForumPost, ForumTopic, ForumTopicFeed } from '../records/forum-records.js';
import { assertTimeZone, SITE_TIME_ZONE } from '../records/forum-time.js';
import { assertObject, toId } from '../records/validate.js';
import { type ListOptions, Resource } from './resource.js';

/** Topics on one page of a category (the site's page size). */
export const TOPICS_PER_PAGE = 25;
/** Posts on one page of a topic (the site's page size). */
export const POSTS_PER_PAGE = 20;

/** Options of a single read. */
export interface ForumReadOptions {
  signal?: AbortSignal;
}

/**
 * `session.forums`: categories, a category's topics, a topic's posts and its feed.
 *
 * Times on the pages are written in the site's time zone ({@link Forums.timeZone}, by default
 * `America/New_York`) as "Today 10:11:12", "Yesterday 10:11:12" or "Jun 3, 2024 10:11:12"; the
 * records hold them as `Date`s ("Today" is the day the page was read).
 *
 * ```ts
 * const topics = await session.forums.topics(5);            // the first 25 topics (stickies first)
 * for await (const post of session.forums.posts(topics[0].id)) console.log(post.author, post.text);
 * ```
 */
export class Forums extends Resource {
  #timeZone = SITE_TIME_ZONE;

  /** The zone the pages write their times in (an IANA name; default `America/New_York`). */
  get timeZone(): string {
    return this.#timeZone;
  }
  set timeZone(zone: string) {
    this.#timeZone = assertTimeZone(zone);
  }

  /** Every category of the forums' index (`/discuss/`), with its group, counts and last post. */
  async categories(options: ForumReadOptions = {}): Promise<ForumCategory[]> {
    assertObject(options, 'options');
    const answer = await this.#get('/discuss/', undefined, options.signal);
    return readHtmlAnswer(this.session, answer, 'GET', (html) => parseCategories(html, this.#clock(answer)));
  }

  /**
   * A category's topics, newest activity first, 25 a page (`/discuss/<id>/?page=N`): await it for
   * the first 25, iterate it (or `.all()`) for every page. Sticky topics lead the first page
   * and are marked `sticky`.
   * @throws ApiError (404) when the category does not exist; naming what was missing when a
   *   page cannot be read
   */
  topics(categoryId: number | string, options: ListOptions = {}): PagedList<ForumTopic> {
    const id = toId(categoryId, 'categoryId');
    return this.#pages(TOPICS_PER_PAGE, options, async (page, signal) => {
      const answer = await this.#get(`/discuss/${id}/`, page, signal);
      if (!answer) return { rows: [], last: null };
      const read = readHtmlAnswer(this.session, answer, 'GET', (html) =>
        parseTopicList(html, id, this.#clock(answer)),
      );
      return {
        rows: this.#rowsOf(answer, page, read, read.topics, TOPICS_PER_PAGE, 'topics'),
        last: read.pages,
      };
    });
  }

  /**
   * A topic's posts, oldest first, 20 a page (`/discuss/topic/<id>/?page=N`): every page when
   * iterated, the first 20 when awaited. Each post has its id, index, author, time, text, HTML
   * and the edit note when the page shows one.
   * @throws ApiError (404) when the topic does not exist; naming what was missing when a page
   *   cannot be read
   */
  posts(topicId: number | string, options: ListOptions = {}): PagedList<ForumPost> {
    const id = toId(topicId, 'topicId');
    return this.#pages(POSTS_PER_PAGE, options, async (page, signal) => {
      const answer = await this.#get(`/discuss/topic/${id}/`, page, signal);
      if (!answer) return { rows: [], last: null };
      const read = readHtmlAnswer(this.session, answer, 'GET', (html) =>
        parsePostPage(html, id, this.#clock(answer)),
      );
      if (page === 1 && read.posts.length === 0) {
        throw this.#unreadable(answer, 'posts (div.blockpost) on the first page');
      }
      // Posts are numbered: a page whose first post is not the page's first is another page.
      const firstIndex = (page - 1) * POSTS_PER_PAGE + 1;
      if (read.posts.length > 0 && read.posts[0]!.index !== firstIndex) return { rows: [], last: null };
      return {
        rows: this.#rowsOf(answer, page, read, read.posts, POSTS_PER_PAGE, 'posts'),
        last: read.pages,
      };
    });
  }

  /**
   * A topic as its Atom feed describes it (`/discuss/feeds/topic/<id>/`): title, category, last
   * update and the newest posts.
   * @throws ApiError (404) when the topic does not exist; naming what was missing when the feed
   *   cannot be read
   */
  async topic(topicId: number | string, options: ForumReadOptions = {}): Promise<ForumTopicFeed> {
    const id = toId(topicId, 'topicId');
    assertObject(options, 'options');
    const answer = await this.#get(`/discuss/feeds/topic/${id}/`, undefined, options.signal);
    return readHtmlAnswer(this.session, answer, 'GET', (xml) => parseTopicFeed(xml, id));
  }

  /**
   * One post by its id: `/discuss/post/<id>/` sends to the page of its topic that holds it
   * (`?page=N#post-<id>`), which is read as `posts` reads it.
   * @throws ApiError (404) when the post does not exist; naming what was missing when the page
   *   it leads to is not its topic's, or does not hold it
   */
  async post(postId: number | string, options: ForumReadOptions = {}): Promise<ForumPost> {
    const id = toId(postId, 'postId');
    assertObject(options, 'options');
    const answer = await this.#get(`/discuss/post/${id}/`, undefined, options.signal);
    const topic = /^\/discuss\/topic\/(\d{1,15})\/$/.exec(new URL(answer.url).pathname);
    if (!topic)
      throw this.#unreadable(answer, `topic (the post's link led to ${new URL(answer.url).pathname})`);
    const topicId = Number(topic[1]);
    const read = readHtmlAnswer(this.session, answer, 'GET', (html) =>
      parsePostPage(html, topicId, this.#clock(answer)),
    );
    const post = read.posts.find((p) => p.id === id);
    if (!post) throw this.#unreadable(answer, `post ${id} (div#p${id}) on the page its link led to`);
    return post;
  }

  /**
   * A post's BBCode, as its author wrote it (`/discuss/post/<id>/source/`, plain text; the forum
   * serves it for quoting).
   * @throws ApiError (404) when the post does not exist, or when the answer is not plain text
   */
  async postSource(postId: number | string, options: ForumReadOptions = {}): Promise<string> {
    const id = toId(postId, 'postId');
    assertObject(options, 'options');
    const answer = await this.#get(`/discuss/post/${id}/source/`, undefined, options.signal);
    const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'text/plain') throw this.#unreadable(answer, `plain text (it is ${type || 'untyped'})`);
    return answerText(answer);
  }

  /** The clock a page is read with; the language is the one the answer says it is in. */
  #clock(answer: HttpAnswer): ForumClock {
    return { timeZone: this.#timeZone, now: Date.now(), language: answer.headers.get('content-language') };
  }

  /**
   * A paged list over numbered pages. Pages after the first wait for it when it is being read:
   * it names the last page, so a walk sends no request past the end (prefetching would send
   * several, each counted against the rate limit).
   */
  #pages<T>(
    pageSize: number,
    options: ListOptions,
    readPage: (page: number, signal?: AbortSignal) => Promise<{ rows: T[]; last: number | null }>,
  ): PagedList<T> {
    assertObject(options, 'options');
    const { limit, offset, ...walk } = options;
    let lastPage: Promise<number | null> | undefined;
    const read = async (page: number, signal?: AbortSignal): Promise<T[]> => {
      if (page === 1) {
        const first = readPage(1, signal);
        lastPage = first.then(
          (answer) => answer.last,
          () => null,
        );
        return (await first).rows;
      }
      const last = await lastPage;
      if (last != null && page > last) return [];
      return (await readPage(page, signal)).rows;
    };
    return new PagedList<T>(numberedPages(pageSize, read), { limit, offset }, walk, {
      pageSize,
      watchRateLimits: (listener) => this.session.http.watchRateLimits(listener),
    });
  }

  /** GET a page of the site; `null` for a 404 of a page past the first (the list has ended). */
  async #get(path: string, page: number, signal?: AbortSignal): Promise<HttpAnswer | null>;
  async #get(path: string, page: undefined, signal?: AbortSignal): Promise<HttpAnswer>;
  async #get(path: string, page: number | undefined, signal?: AbortSignal): Promise<HttpAnswer | null> {
    try {
      // English is asked for; a logged-in account's forum profile may still switch the page to
      // its own language (WIRE.md §12.7), which the readers check.
      return await this.session.http.request(`${this.session.hosts.site}${path}`, {
        query: page === undefined ? undefined : { page },
        headers: { 'Accept-Language': 'en' },
        signal,
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404 && page !== undefined && page > 1) return null;
      throw error;
    }
  }

  /**
   * The rows of page `page`, or `[]` when the answer cannot be page `page`: it says it is another
   * page, or, past the first, it shows no page numbers at all (a site that answers every page
   * with the same one must end a walk, not loop it). A page with more rows than the site's page
   * size would misplace every later window: refused.
   */
  #rowsOf<T>(
    answer: HttpAnswer,
    page: number,
    at: PagePosition,
    rows: T[],
    pageSize: number,
    what: string,
  ): T[] {
    if (at.page === null ? page > 1 : at.page !== page) return [];
    if (at.pages !== null && page > at.pages) return [];
    if (rows.length > pageSize) {
      throw this.#unreadable(answer, `page of at most ${pageSize} ${what} (it holds ${rows.length})`);
    }
    return rows;
  }

  #unreadable(answer: HttpAnswer, missing: string): ApiError {
    return new ApiError({
      status: answer.status,
      url: answer.url,
      method: 'GET',
      reason: `the page has no ${missing}`,
      secrets: this.session.http.secretsFor(answer.url),
    });
  }
}
