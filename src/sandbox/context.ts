import type { Hosts } from '../http/hosts.js';
import type { LoginGuard } from './rules/login-guard.js';
import type { AssetQuota } from './state/asset-quota.js';
import type { ProjectTokens } from './state/project-tokens.js';
import type { SessionTable } from './state/sessions.js';
import type { Store } from './state/store.js';
import type { Views } from './views/api-views.js';
import type { Links } from './views/links.js';

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
