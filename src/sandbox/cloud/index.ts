/**
 * The sandbox's cloud server: the platform endpoint (`/clouddata`), the alternate endpoint
 * (`/clouddata-alt`), the platform's log (`GET /clouddata/logs`) and the seeded history.
 *
 * Choices where WIRE.md is silent (the real services do not document them):
 * - Rate limit per user and project (sets, creates, deletes, renames; not the handshake), shared
 *   by all their connections and kept across reconnects: a token bucket, 10 a second with bursts
 *   of 30 on the platform, 20 a second with bursts of 40 on the alternate server (its web client
 *   sends at most one frame per 50 ms). A connection that empties its bucket is closed with 4003
 *   ("overloaded") and reason `rate limit: …`. At most 10,000 buckets are kept (refilled ones go
 *   first, then the least recently used). `startSandbox({ cloudRateLimits: false })` turns the
 *   limits off for benchmarks.
 * - Limits: 1,000 connections in all (503 past it) and 128 per address (429), 5 s to handshake
 *   (4000), 16 MiB unread per receiver (4003), 30 s without reading anything or a ping (every
 *   30 s, as the alternate server) left unanswered (cut off), 128 MiB
 *   unread in all before a handshake's values frame is refused (4003), frames of at most 1 MiB.
 * - Fan-out: sets are serialized once and batched per receiver per 10 ms tick. Every frame the
 *   server sends is a text frame (prebuilt frames too), as on the real servers.
 * - `/logs`: `limit` 1-100, default 100; `offset` >= 0; `projectid` digits; anything else 400 with
 *   `{"code":"BadRequest","message"}`. A project without entries answers `[]`. Newest first; the
 *   last 100,000 entries of each project are kept. A rename entry names the old variable and
 *   carries the new name (with `☁ `) as its value; a delete entry carries the last value.
 * - 4006 rule: a missing or empty User-Agent is refused, as the alternate server's code does; a
 *   browser (a `Mozilla/5.0 (…` User-Agent and an `Origin`) is taken as it is; a bot's User-Agent
 *   must carry a contact, either a `Contact:` field with something after it or an `@name` / mail
 *   address; a bare URL does not count (library UAs carry their homepage).
 * - Handshake: on the platform the `scratchsessionsid` cookie must belong to the handshake's user
 *   (compared without case), else 4002; the project must be a project of the store, else 4004.
 *   Platform project ids are numbers: `"0042"`, `"42"` and `42` name the same project (its values,
 *   room and log), and later messages are compared the same way. On the alternate server any
 *   username the platform allows, and any project id of 1-100 visible characters, taken as is
 *   (another id closes with 4000, as the alternate server's invalid room id does). A missing or
 *   invalid user in a handshake closes with 4002 on both. The values frame after a handshake is
 *   not sent when the project has no values (the alternate server's behaviour). An unshared
 *   platform project is its owner's alone: 4004 for anyone else, and `/logs` answers `[]`.
 * - The alternate endpoint keeps digits only, by the alternate server's own rule (`""`, `"5."`,
 *   `"-."` pass; `"-"`, `"."` and text are dropped silently), ignores binary frames, and sends the
 *   alternate server's plain-text warning frame before closing with 4005 or 4006. The platform
 *   cookie of a browser's page of the sandbox's own site (its `Origin` is the host it connects to)
 *   does not close it with 4005: the endpoints share one host here, where the real alternate
 *   server is another site that browsers never send the platform's cookie to.
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
export { acceptsUserAgent, isBrowserUpgrade, isIdentifyingUserAgent } from './user-agent-rule.js';
export { PLATFORM_COOKIE_WARNING, USER_AGENT_WARNING } from './warning-frames.js';
