/**
 * The forums' seed: eight categories, about 500 topics and 6,000 posts by sixty authors over half
 * a year, with a busy topic of 1,250 posts, sticky and closed topics, edited posts, counts over a
 * thousand, and posts of the last hours (so the pages show "Today" and "Yesterday" too).
 * Everything but the moment it is anchored at is the same for one seed.
 */
import { escapeHtml } from '../../records/html.js';
import type { ForumCategoryRow, ForumData, ForumPostRow, ForumTopicRow } from '../state/forum-state.js';
import { Random } from './random.js';
import * as words from './vocabulary.js';

/** What the forums are generated from. */
export interface ForumSeed {
  seed: number;
  /** Usernames the authors are drawn from (the seed's users). */
  usernames: () => readonly string[];
  /** The moment the newest posts lead up to (the sandbox uses its first forum read). */
  now: () => number;
}

/** The category `sandbox.samples.forumCategory` names: a few dozen topics, worth a crawl. */
export const FORUM_SAMPLE_CATEGORY = 31;
/** The busy topic (`sandbox.samples.busyTopic`): 1,250 posts, 63 pages; the oldest topic. */
export const BUSY_TOPIC_ID = 700_000;
const BUSY_TOPIC_POSTS = 1_250;
const BUSY_TOPIC_CATEGORY = 1;
const FIRST_POST_ID = 7_000_000;
const AUTHORS = 60;
const DAY = 86_400_000;
const SPAN_DAYS = 180;

/**
 * [id, name, group, description, topics]: ids as the real site numbers its categories. A
 * description is HTML, as the site's are (`forum.description|safe`, inline markup and all).
 */
const CATEGORIES: readonly (readonly [number, string, string, string, number])[] = [
  [5, 'Announcements', 'Welcome to Scratch', 'Updates from the <b>Scratch Team</b>.', 8],
  [
    6,
    'New Scratchers',
    'Welcome to Scratch',
    'A place for <a href="/discuss/6/">new Scratchers</a> to say hi.',
    50,
  ],
  [
    7,
    'Help with Scripts',
    'Making Scratch Projects',
    'Need help with your <i>Scratch</i> <code>scripts</code>?',
    110,
  ],
  [2, 'Show and Tell', 'Making Scratch Projects', 'Tell everyone about your projects.', 70],
  [4, 'Questions about Scratch', 'About Scratch', 'Questions about the website and the editor.', 60],
  [1, 'Suggestions', 'About Scratch', 'Ideas to make Scratch better.', 90],
  [3, 'Bugs and Glitches', 'About Scratch', 'Report what is broken.', 60],
  [31, 'Advanced Topics', 'Interests Beyond Scratch', 'Programming beyond the blocks.', 45],
];

const TITLES = [
  'How do I make a {adj} {thing}?',
  'Add a "{thing}" block',
  '{thing} glitch in the editor',
  'My {adj} {animal} game: feedback?',
  'Why does my {animal} sprite flicker?',
  'Tips & tricks: <clones> in a {thing}',
  'Collab wanted: {adj} {thing} set in {place}',
  'Questions about the {thing} tutorial',
  'Is there a limit on {thing} size?',
  'Très {adj}: un {thing} en français',
];

const SENTENCES = [
  'I have been trying this for {n} minutes and it still does not work.',
  'Use a broadcast and wait instead of a forever loop.',
  'Have you tried putting the {animal} sprite in its own clone?',
  'This is a great idea, support!',
  'No support, it would make the editor too complicated.',
  'Here is my project, look inside and tell me what is wrong.',
  'The variable resets because the green flag runs twice.',
  'Thanks, that fixed it 🎉',
  'I think this is already possible with custom blocks.',
  'Can a moderator close this topic? My question is answered.',
  'Bump: still looking for help.',
  'Wow, {n} replies already!',
  'It works on my computer, maybe it is your browser?',
  'Could you share a screenshot?',
  'I made a {adj} {thing} like that in {place}, it uses lists.',
];

const CODE = [
  'when green flag clicked\nforever\n  move (10) steps\nend',
  'set [score v] to (0)\nchange [score v] by (1)',
];

/** Posts a day are busiest in the site's afternoons and evenings (UTC hours, weights). */
const HOUR_WEIGHTS = [5, 4, 3, 2, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 8, 7, 6];
const HOUR_TOTAL = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);

function fill(rng: Random, template: string): string {
  return template.replace(/\{(animal|adj|thing|place|n)\}/g, (_, key: string) => {
    if (key === 'animal') return rng.pick(words.ANIMALS);
    if (key === 'adj') return rng.pick(words.ADJECTIVES);
    if (key === 'thing') return rng.pick(words.THINGS);
    if (key === 'place') return rng.pick(words.PLACES);
    return String(rng.int(2, 2_000));
  });
}

function hourOfDay(rng: Random): number {
  let draw = rng.int(1, HOUR_TOTAL);
  for (let hour = 0; hour < 24; hour++) {
    draw -= HOUR_WEIGHTS[hour]!;
    if (draw <= 0) return hour;
  }
  return 23;
}

/**
 * A post's BBCode and its HTML as the site renders it (`djangobb_forum/util.py`: `[quote=…]` as
 * `<blockquote><p class="bb-quote-author">… wrote:</p>`, `[b]` as `span.bb-bold`,
 * `[scratchblocks]` as `<pre class=blocks>`): paragraphs, sometimes a quote, code, bold, a link.
 */
function postBody(
  rng: Random,
  quote: { author: string; html: string; source: string } | undefined,
): { html: string; source: string } {
  const html: string[] = [];
  const source: string[] = [];
  if (quote && rng.chance(0.3)) {
    html.push(
      `<blockquote><p class="bb-quote-author">${escapeHtml(quote.author)} wrote:</p>${quote.html}</blockquote>`,
    );
    source.push(`[quote=${quote.author}]${quote.source}[/quote]\n`);
  }
  const sentences = rng.int(1, 4);
  for (let i = 0; i < sentences; i++) {
    const text = fill(rng, rng.pick(SENTENCES));
    const bold = rng.chance(0.1);
    html.push(bold ? `<span class="bb-bold">${escapeHtml(text)}</span>` : escapeHtml(text));
    source.push(bold ? `[b]${text}[/b]` : text);
    if (i + 1 < sentences) {
      html.push('<br>');
      source.push('\n');
    }
  }
  if (rng.chance(0.08)) {
    const code = rng.pick(CODE);
    html.push(`<pre class="blocks">${escapeHtml(code)}</pre>`);
    source.push(`[scratchblocks]\n${code}\n[/scratchblocks]`);
  }
  if (rng.chance(0.08)) {
    const url = `https://scratch.mit.edu/projects/${rng.int(100_000, 999_999)}/`;
    html.push(`<br><a href="${url}">${url}</a>`);
    source.push(`\n[url]${url}[/url]`);
  }
  return { html: html.join(''), source: source.join('') };
}

/** Generates the forums. Costs some tens of milliseconds; the sandbox calls it on first use. */
export function seedForums(seed: ForumSeed): ForumData {
  const rng = new Random(seed.seed ^ 0x666f_7275);
  const anchor = Math.floor(seed.now() / 60_000) * 60_000;
  const today = Math.floor(anchor / DAY) * DAY;
  const pool = [...seed.usernames()].sort();
  const authors = rng.sample(pool, AUTHORS);
  if (authors.length === 0) throw new Error('the forums need at least one user');
  // A few authors write most posts, as on the real forums.
  const author = () => authors[Math.floor(rng.next() ** 2 * authors.length)]!;
  /** A time on day `day` (0 = today, 1 = yesterday, …) at a busy hour, never after the anchor. */
  const timeOn = (day: number) =>
    Math.min(
      anchor - rng.int(0, 600) * 1000,
      today - day * DAY + hourOfDay(rng) * 3_600_000 + rng.int(0, 3_599_999),
    );

  const categories: ForumCategoryRow[] = CATEGORIES.map(([id, name, group, description]) => ({
    id,
    name,
    group,
    description,
  }));
  type Draft = ForumTopicRow & { created: number };
  const drafts: Draft[] = [];
  for (const [categoryId, , , , count] of CATEGORIES) {
    for (let i = 0; i < count; i++) {
      const busy = categoryId === BUSY_TOPIC_CATEGORY && i === 0;
      const startDay = busy ? SPAN_DAYS + 20 : rng.int(0, SPAN_DAYS);
      const posts = busy ? BUSY_TOPIC_POSTS : 1 + Math.min(400, rng.skewed(6, 1.1));
      // Most topics go quiet within weeks; some are still going today.
      const lastDay = Math.max(0, startDay - (busy ? startDay : Math.min(startDay, rng.skewed(10, 1.3))));
      const times = [timeOn(startDay)];
      for (let p = 1; p < posts; p++) times.push(timeOn(rng.int(lastDay, startDay)));
      times.sort((a, b) => a - b);
      const title =
        categoryId === 5 ? `${fill(rng, 'Scratch Update: {adj} {thing}s')}` : fill(rng, rng.pick(TITLES));
      const rows: ForumPostRow[] = [];
      for (const time of times) {
        const previous = rows.at(-1);
        const row: ForumPostRow = {
          id: 0,
          topicId: 0,
          author: rows.length === 0 || !rng.chance(0.15) ? author() : rows[0]!.author,
          time,
          ...postBody(
            rng,
            previous && { author: previous.author, html: previous.html, source: previous.source },
          ),
        };
        if (rng.chance(0.06)) {
          row.edited = {
            by: rng.chance(0.9) ? row.author : 'Paddle2See',
            time: Math.min(anchor, time + rng.int(60, 2 * 86_400) * 1000),
          };
        }
        rows.push(row);
      }
      drafts.push({
        id: 0,
        categoryId,
        title,
        sticky: !busy && i < (count >= 60 ? 2 : 1),
        closed: categoryId === 5 || rng.chance(0.03),
        views: posts * rng.int(5, 40) + rng.skewed(200),
        posts: rows,
        created: times[0]!,
      });
    }
  }
  // Ids grow with time, as the site's do; the busy topic is the oldest, so its id is the first.
  drafts.sort((a, b) => a.created - b.created);
  let topicId = BUSY_TOPIC_ID;
  for (const draft of drafts) {
    draft.id = topicId;
    topicId += rng.int(1, 4);
    for (const post of draft.posts) post.topicId = draft.id;
  }
  const allPosts = drafts.flatMap((d) => d.posts).sort((a, b) => a.time - b.time || a.topicId - b.topicId);
  let postId = FIRST_POST_ID;
  for (const post of allPosts) {
    post.id = postId;
    postId += rng.int(1, 3);
  }
  const topics = new Map<number, ForumTopicRow>();
  const topicsByCategory = new Map<number, ForumTopicRow[]>(categories.map((c) => [c.id, []]));
  for (const { created: _created, ...topic } of drafts) {
    topics.set(topic.id, topic);
    topicsByCategory.get(topic.categoryId)!.push(topic);
  }
  const lastTime = (t: ForumTopicRow) => t.posts.at(-1)!.time;
  for (const list of topicsByCategory.values()) {
    list.sort((a, b) => Number(b.sticky) - Number(a.sticky) || lastTime(b) - lastTime(a) || b.id - a.id);
  }
  return { categories, topics, topicsByCategory };
}
