/** Typed records of profile edits (WIRE.md §12.5): the featured project and its label. */

/**
 * The labels a profile's featured project can have, by name. The site numbers them: `''`
 * "Featured Project", `0` "Featured Tutorial", `1` "Work In Progress", `2` "Remix This!",
 * `3` "My Favorite Things", `4` "Why I Scratch".
 */
export type FeaturedLabel =
  | 'featured-project'
  | 'featured-tutorial'
  | 'work-in-progress'
  | 'remix-this'
  | 'my-favorite-things'
  | 'why-i-scratch';

/** The site's code of each label, as `featured_project_label` takes it. */
export const FEATURED_LABEL_CODES: Readonly<Record<FeaturedLabel, string>> = Object.freeze({
  'featured-project': '',
  'featured-tutorial': '0',
  'work-in-progress': '1',
  'remix-this': '2',
  'my-favorite-things': '3',
  'why-i-scratch': '4',
});

/** The project a profile features, as `featured_project_data` describes it. */
export interface FeaturedProjectData {
  /** The project's id (a number in a captured answer, a string by scapi's reading; read as a number). */
  id: number;
  creator: string;
  title: string;
  /** `//uploads.scratch.mit.edu/…` on the wire, given the answer's scheme. */
  thumbnail_url: string;
  /** When the project was last changed (ISO; zone-less on the wire, read as UTC with its `Z`). */
  datetime_modified: string;
}

/**
 * A profile's featured project (`{site}/site-api/users/all/<name>/`), in the live answer's shape
 * (WIRE.md §12.7). "About me" and "What I'm working on" are not in it: `users.get(name).profile`
 * holds them.
 */
export interface ProfileDetails {
  /** The profile's id. */
  id: number;
  user: { username: string; pk: number };
  /** The user's picture (protocol-relative on the wire; given the answer's scheme, as every record's URLs). */
  thumbnail_url: string;
  /** The featured project's id; `null` means the latest shared project. */
  featured_project: number | null;
  /** The label's number (`null` for "Featured Project", `0` to `4`: see {@link FeaturedLabel}). */
  featured_project_label_id: number | null;
  /** The label as the profile shows it ("Work In Progress"). */
  featured_project_label_name: string;
  /** The project the profile shows, or `null` when it has none to show. */
  featured_project_data: FeaturedProjectData | null;
}

/**
 * A profile's totals, as its pages' headings state them ("Followers (1234)"): what the API's user
 * record does not hold.
 */
export interface ProfileTotals {
  username: string;
  followers: number;
  following: number;
  /** Shared projects. */
  projects: number;
  /** Studios the user hosts, manages or curates. */
  studios: number;
  favorites: number;
  /** Projects the user loves. */
  loves: number;
}

/** A project a user loves, as the loves page (`/projects/all/<name>/loves/`) lists it. */
export interface LovedProject {
  id: number;
  title: string;
  author: string;
}

/** Where a user stands on the site (`users.rank`). */
export interface UserRank {
  username: string;
  /** New Scratcher, Scratcher, or Scratch Team (as scratchattach's `User.rank` orders them). */
  rank: 'new-scratcher' | 'scratcher' | 'scratch-team';
  /** Whether the profile shows the membership badge; `null` when the answer does not say. */
  membership: boolean | null;
}

/** A member of the Scratch Team, as the site's credits page lists them (`users.scratchTeam`). */
export interface ScratchTeamMember {
  /** Their Scratch username; `null` for a member listed without one. */
  username: string | null;
  /** Their user id; `null` when listed without one. */
  id: number | null;
  /** Their first name, as the credits show it. */
  name: string;
}
