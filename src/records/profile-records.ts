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

/** A profile's "About me", "What I'm working on" and featured project (`{site}/site-api/users/all/<name>/`). */
export interface ProfileDetails {
  username: string;
  id: number;
  /** "About me". */
  bio: string;
  /** "What I'm working on". */
  status: string;
  /** The featured project's id; `null` means the latest shared project. */
  featured_project: number | null;
  /** The label's code: `''` or `'0'` to `'4'` (see {@link FeaturedLabel}). */
  featured_project_label: string;
  /** The label as the profile shows it ("Work In Progress"). */
  featured_project_label_name: string;
  /** The project the profile shows, or `null` when it has none to show. */
  featured_project_data: { id: number; creator: string; title: string; thumbnail_url: string } | null;
  /** Refusals of the edit's content, as the site words them; empty when it took. */
  errors?: string[];
}
