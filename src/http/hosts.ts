import { assertBaseUrl } from '../records/validate.js';

/**
 * Base URLs of the platform's roles (WIRE.md §1). The real service spreads them over
 * subdomains of one site; the sandbox serves them all from one port under prefixes.
 */
export interface Hosts {
  /** Login, logout and `/session/`. */
  site: string;
  /** REST reads and metadata writes. */
  api: string;
  /** Project bodies (`GET/PUT <id>`). */
  projects: string;
  /** Costumes and sounds, addressed by `md5ext`. */
  assets: string;
  /** Cloud logs over HTTP. */
  cloudHttp: string;
  /** Cloud variables over WebSocket (`wss://` or `ws://`). */
  cloudWs: string;
  /** Backpacks: each user's list and the items' files (WIRE.md §12.3). */
  backpack: string;
}

/** The real platform's hosts: the default of every `Session`. */
export const PLATFORM_HOSTS: Readonly<Hosts> = Object.freeze({
  site: 'https://scratch.mit.edu',
  api: 'https://api.scratch.mit.edu',
  projects: 'https://projects.scratch.mit.edu',
  assets: 'https://assets.scratch.mit.edu',
  cloudHttp: 'https://clouddata.scratch.mit.edu',
  cloudWs: 'wss://clouddata.scratch.mit.edu',
  backpack: 'https://backpack.scratch.mit.edu',
});

const ROLES = Object.keys(PLATFORM_HOSTS) as (keyof Hosts)[];

/**
 * Fills in missing roles with the real hosts and checks each URL.
 * Trailing slashes are dropped so paths can be appended with a single `/`.
 */
export function resolveHosts(partial: Partial<Hosts> = {}): Hosts {
  if (partial === null || typeof partial !== 'object') {
    throw new TypeError('hosts must be an object of base URLs');
  }
  const out = { ...PLATFORM_HOSTS };
  for (const [key, value] of Object.entries(partial)) {
    if (!ROLES.includes(key as keyof Hosts)) {
      throw new TypeError(`hosts.${key} is not a known role (expected one of ${ROLES.join(', ')})`);
    }
    if (value === undefined) continue;
    const protocols = key === 'cloudWs' ? ['ws:', 'wss:'] : ['http:', 'https:'];
    out[key as keyof Hosts] = assertBaseUrl(value, `hosts.${key}`, protocols);
  }
  return out;
}
