/**
 * The sandbox's cloud server: the platform endpoint (`/clouddata`), the alternate endpoint
 * (`/clouddata-alt`), the platform's log (`GET /clouddata/logs`) and the seeded history.
 *
 * Choices where WIRE.md is silent (the real services do not document them):
 * - Rate limit per connection (sets, creates, deletes, renames; not the handshake): a token
 *   bucket, 10 a second with bursts of 30 on the platform, 20 a second with bursts of 40 on the
 *   alternate server (its web client sends at most one frame per 50 ms). A connection that
 *   empties its bucket is closed with 4003 ("overloaded") and reason `rate limit: …`; a client
 *   keeping the default 0.1 s between sets never meets it. `startSandbox({ cloudRateLimits: false })`
 *   turns the limits off for benchmarks. A receiver more than 16 MiB behind is also closed with 4003.
 * - `/logs`: `limit` 1-100, default 100; `offset` >= 0; `projectid` digits; anything else 400 with
 *   `{"code":"BadRequest","message"}`. A project without entries answers `[]`. Newest first; the
 *   last 100,000 entries of each project are kept. A rename entry names the old variable and
 *   carries the new name (with `☁ `) as its value; a delete entry carries the last value.
 * - 4006 rule: the User-Agent must carry a contact, either a `Contact:` field with something after
 *   it or an `@name` / mail address; a bare URL does not count (library UAs carry their homepage).
 * - Handshake: on the platform the `scratchsessionsid` cookie must belong to the handshake's user
 *   (compared without case), else 4002; the project must be a project of the store, else 4004.
 *   Platform project ids are numbers: `"0042"`, `"42"` and `42` name the same project (its values,
 *   room and log), and later messages are compared the same way. On the alternate server any
 *   username the platform allows, and any project id of 1-100 visible characters, taken as is.
 *   The values frame after a handshake is sent even when empty.
 * - The alternate endpoint keeps no log (it has no logs endpoint), and keeps the values of at most
 *   32 projects whose last connection left (the least recently left beyond that are dropped).
 * - Sets after the handshake must carry its user and project id (else 4000). Creates are
 *   forwarded as sets; deletes and renames are not forwarded (clients only know `set`). At most
 *   128 variables per project: sets of more are dropped like invalid values.
 * - `close()` sends 1001 to every client, waits up to 2 s for their answers, then cuts them off.
 *   Sets that arrive in between (sent before the client saw the close) are still applied.
 * - Upgrades that are refused (another path 404, during `close()` 503, a request `ws` would refuse
 *   400 or 405) are answered `{"code","message"}` as JSON, like every other error of the sandbox.
 */

export {
  ALTERNATE_RATE_LIMIT,
  alternatePolicy,
  type CloudPolicy,
  type CloudRateLimit,
  PLATFORM_RATE_LIMIT,
  platformPolicy,
} from './cloud-policy.js';
export { GAME_VARIABLES, type GameSeedOptions, seedGameHistory, seedSimpleProject } from './cloud-seed.js';
export {
  ALTERNATE_IDLE_PROJECTS,
  attachCloudServer,
  CloudServer,
  type CloudServerDeps,
  type CloudServerOptions,
  LOGS_MAX_LIMIT,
  type LogsAnswer,
} from './cloud-server.js';
export {
  type CloudChange,
  type CloudLogRecord,
  CloudProject,
  CloudState,
  type CloudStateOptions,
} from './cloud-state.js';
export { type SandboxCloud, type SandboxCloudSetup, setUpSandboxCloud } from './sandbox-cloud.js';
export { isIdentifyingUserAgent } from './user-agent-rule.js';
