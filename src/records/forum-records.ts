/**
 * The forums' records (WIRE.md §12.1), as read from the site's HTML pages and Atom feeds. Times
 * are `Date`s: the pages write them in the site's time zone ("Today 10:11:12", "Yesterday …",
 * "Jun 3, 2024 10:11:12"), which the reader turns into instants.
 */

/** The last post of a topic or a category, as a list row shows it. */
export interface ForumLastPost {
  /** The post's id (from its `/discuss/post/<id>/` link), or `null` when the row has no link. */
  id: number | null;
  /** When it was posted, or `null` when the row shows no time we can read. */
  time: Date | null;
  /** Who posted it, or `null` when the row names no one. */
  author: string | null;
}

/** A category of the forums, from the index page `/discuss/`. */
export interface ForumCategory {
  id: number;
  name: string;
  /** The heading the category is listed under ("Welcome to Scratch"), or `''`. */
  group: string;
  /** The line under its name, or `''`. */
  description: string;
  /** Topics in it. */
  topics: number;
  /** Posts in it. */
  posts: number;
  lastPost: ForumLastPost;
}

/** A row of a category's topic list (`/discuss/<category>/?page=N`). */
export interface ForumTopic {
  id: number;
  title: string;
  /** The category's name, as the page's heading shows it. */
  category: string;
  categoryId: number;
  /** Who started it, or `null` when the row names no one. */
  author: string | null;
  /** Replies (posts after the first). */
  replies: number;
  views: number;
  /** Pinned to the top of the category's first page. */
  sticky: boolean;
  /** Closed to new posts (the row shows the "closed" icon). */
  closed: boolean;
  lastPost: ForumLastPost;
}

/** A post of a topic (`/discuss/topic/<id>/?page=N`). */
export interface ForumPost {
  id: number;
  topicId: number;
  /** The topic's title, as the page's heading shows it. */
  topicTitle: string;
  /** Its place in the topic, from 1. */
  index: number;
  author: string;
  /** When it was posted, or `null` when the page shows no time we can read. */
  time: Date | null;
  /** The post's text, white space collapsed. */
  text: string;
  /** The post's rendered HTML (the inside of `div.post_body_html`). */
  html: string;
  /** The page's edit note ("Last edited by alice (Jun 3, 2024 10:11:12)"), or `null`. */
  editNote: string | null;
  /** Who last edited it, when the note says. */
  editedBy: string | null;
  /** When it was last edited, when the note says. */
  editedAt: Date | null;
}

/** An entry of a topic's Atom feed: one of its newest posts. */
export interface ForumFeedPost {
  /** The post's id (from the entry's link or id), or `null` when neither names one. */
  id: number | null;
  /** The entry's title, `"<Forum> :: <Category> :: <Topic>"` on the real site. */
  title: string;
  author: string | null;
  /** Its `published` time, else its `updated` time; `null` when neither reads as a date. */
  time: Date | null;
  link: string | null;
  /** The post's HTML, as the feed carries it. */
  html: string;
}

/** A topic as its Atom feed (`/discuss/feeds/topic/<id>/`) describes it. */
export interface ForumTopicFeed {
  id: number;
  /** The topic's title (the feed's title without "Latest posts on "). */
  title: string;
  /** The category's name (the middle part of the entries' titles), or `''`. */
  category: string;
  /** The feed's `updated` time, or `null`. */
  updated: Date | null;
  /** The newest posts, as the feed lists them (newest first on the real site). */
  posts: ForumFeedPost[];
}
