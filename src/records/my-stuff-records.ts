/** Typed records of "My Stuff" (WIRE.md §12.4): the logged-in user's own projects and studios. */

/** A project of "My Stuff" (`{site}/site-api/projects/<filter>/`), shared or not. */
export interface MyStuffProject {
  /** The project id. */
  pk: number;
  fields: {
    title: string;
    datetime_created: string;
    datetime_modified: string;
    /** `null` while unshared. */
    datetime_shared: string | null;
    thumbnail_url: string;
    favorite_count: number;
    love_count: number;
    remixers_count: number;
    view_count: number;
    commenters_count: number;
  };
}

/** A studio of "My Stuff" (`{site}/site-api/galleries/<filter>/`). */
export interface MyStuffStudio {
  /** The studio id. */
  pk: number;
  fields: {
    title: string;
    owner: { pk: number; username: string };
    thumbnail_url: string;
    datetime_created: string;
    datetime_modified: string;
    curators_count: number;
    projecters_count: number;
  };
}

/** The counts "My Stuff" shows (`{site}/mystuff/`). */
export interface MyStuffCounts {
  shared: number;
  unshared: number;
  studios: number;
}
