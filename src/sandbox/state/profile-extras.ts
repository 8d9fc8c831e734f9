/**
 * What the sandbox keeps beside the user and project rows for the writes of WIRE.md §12.4-12.5:
 * each profile's featured project and its label, and the thumbnails uploaded for projects.
 */

/** A profile's featured project: its id (`null`: the latest shared one) and label code. */
export interface FeaturedRow {
  projectId: number | null;
  /** The site's label code: `''` "Featured Project", `'0'` to `'4'` the others. */
  label: string;
}

/** The largest thumbnail the sandbox takes (the site's limit is about this). */
export const MAX_THUMBNAIL_BYTES = 512 * 1024;

/** Featured projects and uploaded thumbnails. */
export class ProfileExtras {
  readonly featured = new Map<number, FeaturedRow>();
  /** Project id → the PNG or JPEG bytes last uploaded as its thumbnail. */
  readonly thumbnails = new Map<number, Uint8Array>();
}
