/**
 * The logged-in user's backpack (WIRE.md §12.3), on its own host (`hosts.backpack`): the list (40
 * items a request, X-Token), the items' files (no login; a script is JSON, the rest bytes, each
 * checked against the md5 in its name) and deleting an item.
 */
import { ApiError } from '../errors.js';
import type { ClientCore } from '../http/client-core.js';
import { PagedList } from '../http/paging.js';
import { md5Hex } from '../project/assets.js';
import type { BackpackItem } from '../records/backpack-records.js';
import { parseJson } from '../records/json.js';
import { assertNonEmptyString, assertObject } from '../records/validate.js';
import type { ListOptions } from './resource.js';

/** A file of the backpack host: an md5 and an extension. */
const FILE_NAME = /^[0-9a-f]{32}\.[a-z0-9]{1,5}$/;
/** An item id: a UUID on the real host; letters, digits and dashes. */
const ITEM_ID = /^[A-Za-z0-9-]{1,64}$/;

/** The backpack: `{backpack}/<username>` and its items' files. */
export class Backpack {
  /** The client, seen through the narrow interface resources need. */
  protected readonly session: ClientCore;

  constructor(session: ClientCore) {
    this.session = session;
  }

  /**
   * The items, newest first: `await` for one window (40 by default), `for await` or `.all()` for
   * every item, 40 a request.
   */
  list(options?: ListOptions): PagedList<BackpackItem> {
    this.session.requireAuth('backpack.list');
    const url = `${this.session.hosts.backpack}/${encodeURIComponent(this.session.username!)}`;
    const { limit, offset, ...walk } = options ?? {};
    return new PagedList<BackpackItem>(
      (pageLimit, pageOffset, signal) =>
        this.session.authedJson<BackpackItem[]>(url, {
          query: { limit: pageLimit, offset: pageOffset },
          signal,
        }),
      { limit, offset },
      walk,
      { watchRateLimits: (listener) => this.session.http.watchRateLimits(listener) },
    );
  }

  /**
   * An item's content: the parsed JSON of a script (a list of blocks), the bytes of anything else
   * (an SVG or PNG costume, a WAV sound, a zipped sprite). The bytes are checked against the md5
   * in the file's name.
   */
  async download(
    item: BackpackItem | string,
    options: { signal?: AbortSignal } = {},
  ): Promise<unknown[] | Uint8Array> {
    if (typeof item !== 'string') assertObject(item, 'item');
    const name = typeof item === 'string' ? item : item.body;
    assertNonEmptyString(name, 'item.body');
    if (!FILE_NAME.test(name))
      throw new RangeError(`${JSON.stringify(name)} is not a backpack file name (<md5>.<ext>)`);
    const url = `${this.session.hosts.backpack}/${name}`;
    const answer = await this.session.http.request(url, { signal: options.signal, download: true });
    const fail = (reason: string) => new ApiError({ status: answer.status, url, method: 'GET', reason });
    if (md5Hex(answer.bytes) !== name.slice(0, 32)) throw fail('the file does not match the md5 of its name');
    if (!name.endsWith('.json')) return answer.bytes;
    let value: unknown;
    try {
      value = parseJson(new TextDecoder().decode(answer.bytes));
    } catch {
      throw fail('the script is not valid JSON');
    }
    if (!Array.isArray(value)) throw fail('a backpacked script is a JSON list of blocks');
    return value;
  }

  /** Deletes an item of the backpack by its id. */
  async delete(id: string): Promise<void> {
    assertNonEmptyString(id, 'id');
    if (!ITEM_ID.test(id)) throw new RangeError(`${JSON.stringify(id)} is not a backpack item id`);
    this.session.requireAuth('backpack.delete');
    const me = encodeURIComponent(this.session.username!);
    await this.session.authedJson(`${this.session.hosts.backpack}/${me}/${id}`, { method: 'DELETE' });
  }
}
