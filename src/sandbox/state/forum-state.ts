/**
 * The sandbox's forums (WIRE.md §12.1): categories, topics and posts, generated on the first
 * forum request (not at start-up: the sandbox starts as fast as before), then read-only.
 */
import { type SandboxRegistry, sandboxRegistry } from '../store-access.js';

/** A category of the index page. */
export interface ForumCategoryRow {
  id: number;
  name: string;
  group: string;
  /** HTML: inline markup, as the site's descriptions have. */
  description: string;
}

/** A topic; its posts are `posts`, oldest first. */
export interface ForumTopicRow {
  id: number;
  categoryId: number;
  title: string;
  sticky: boolean;
  closed: boolean;
  views: number;
  posts: ForumPostRow[];
}

/** A post; `html` is the rendered body (what the site shows inside `div.post_body_html`). */
export interface ForumPostRow {
  id: number;
  topicId: number;
  author: string;
  /** Milliseconds since the epoch. */
  time: number;
  html: string;
  /** Its BBCode, as `/discuss/post/<id>/source/` answers it. */
  source: string;
  /** Set when the post was edited: by whom and when. */
  edited?: { by: string; time: number };
}

/** The generated forums, with the lookups the routes need. */
export interface ForumData {
  categories: ForumCategoryRow[];
  topics: Map<number, ForumTopicRow>;
  /** Each category's topics in the order its pages list them: stickies, then newest post first. */
  topicsByCategory: Map<number, ForumTopicRow[]>;
}

/** The forums of one sandbox: generated once, on first use. */
export class ForumState {
  #data: ForumData | undefined;
  readonly #generate: () => ForumData;

  /** @param generate makes the data (the seed's `seedForums`), called on the first read */
  constructor(generate: () => ForumData) {
    this.#generate = generate;
  }

  /** The data, generated now if this is the first read. */
  get data(): ForumData {
    this.#data ??= this.#generate();
    return this.#data;
  }

  /** Whether the data exists yet (tests of the lazy start-up read it). */
  get generated(): boolean {
    return this.#data !== undefined;
  }
}

/** The forums of each running sandbox, for this project's own tests (not exported by `scratchlab/sandbox`). */
export const forumStates: SandboxRegistry<ForumState> = sandboxRegistry<ForumState>();
