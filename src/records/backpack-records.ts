/** Typed records of the backpack (WIRE.md §12.3). */

/** What an item is. */
export type BackpackItemType = 'script' | 'costume' | 'sound' | 'sprite';

/** One item of a backpack, as the backpack host lists it: every field a string. */
export interface BackpackItem {
  /** The item's id (a UUID on the real host): what `backpack.delete` takes. */
  id: string;
  type: BackpackItemType | (string & {});
  /** The content's media type (`application/json` for scripts, `image/svg+xml`, `audio/x-wav`, …). */
  mime: string;
  name: string;
  /** The content's file on the backpack host: `<md5>.json` for scripts, `.svg`, `.png`, `.wav`, `.zip` for the rest. */
  body: string;
  /** The thumbnail's file on the backpack host. */
  thumbnail: string;
}
