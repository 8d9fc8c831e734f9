import type { Hosts } from '../hosts.js';
import type { AssetQuota } from './asset-quota.js';
import type { Links } from './links.js';
import type { LoginGuard } from './login-guard.js';
import type { ProjectTokens } from './project-tokens.js';
import type { SessionTable } from './sessions.js';
import type { Store } from './store.js';
import type { Views } from './views.js';

/** Everything the routes of one sandbox share. */
export interface SandboxContext {
  store: Store;
  views: Views;
  links: Links;
  hosts: Hosts;
  sessions: SessionTable;
  loginGuard: LoginGuard;
  projectTokens: ProjectTokens;
  assetQuota: AssetQuota;
}
