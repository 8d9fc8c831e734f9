/**
 * Every user's backpack (WIRE.md §12.3): items in the order they were put in, newest first, and
 * the files their `body` and `thumbnail` name, served from the backpack host.
 */

/** One item as the backpack host lists it: every field a string. */
export interface BackpackRow {
  id: string;
  type: 'script' | 'costume' | 'sound' | 'sprite';
  mime: string;
  name: string;
  /** The file of its content: `<md5>.json` for scripts, `.svg`/`.png`/`.wav`/`.zip` for the rest. */
  body: string;
  /** The file of its thumbnail: `<md5>.png` or `.jpg`. */
  thumbnail: string;
}

/** The backpacks of one sandbox. */
export class Backpacks {
  readonly #items = new Map<number, BackpackRow[]>();
  /** File bytes by name (`<md5>.<ext>`). */
  readonly files = new Map<string, { bytes: Uint8Array; contentType: string }>();

  /** The items of a user's backpack, newest first. */
  of(userId: number): BackpackRow[] {
    let list = this.#items.get(userId);
    if (!list) {
      list = [];
      this.#items.set(userId, list);
    }
    return list;
  }

  /** Removes an item; answers whether it was there. */
  remove(userId: number, id: string): boolean {
    const list = this.of(userId);
    const at = list.findIndex((item) => item.id === id);
    if (at < 0) return false;
    list.splice(at, 1);
    return true;
  }
}
