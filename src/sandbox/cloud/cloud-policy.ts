/**
 * The two policies the sandbox's cloud serves: the platform's (`/clouddata`) and the alternate
 * server's (`/clouddata-alt`). They share the wire (WIRE.md §5) and differ in who may connect,
 * which values pass, and how fast a connection may send.
 */
import {
  ALTERNATE_LENGTH_LIMIT,
  CLOUD_PREFIX,
  isNumericValue,
  numberText,
  PLATFORM_LENGTH_LIMIT,
} from '../../cloud/cloud-values.js';

/**
 * A limit on messages (sets, creates, deletes, renames; not the handshake) per user and project,
 * shared by all their connections.
 */
export interface CloudRateLimit {
  /** Sustained messages per second. */
  perSecond: number;
  /** Messages that may come at once after a quiet time. */
  burst: number;
}

export interface CloudPolicy {
  readonly kind: 'platform' | 'alternate';
  /** Longest value, in characters. */
  readonly lengthLimit: number;
  /** Text values pass (else only numbers). */
  readonly allowNonNumeric: boolean;
  /** The handshake needs a session cookie whose user is the handshake's user. */
  readonly requiresSession: boolean;
  /** A platform session cookie closes the connection with 4005 (not one of a browser's page of the sandbox's own site: see cloud-server.ts). */
  readonly refusesPlatformCookie: boolean;
  /** A missing User-Agent, or a bot's without a contact, closes the connection with 4006 (see user-agent-rule.ts). */
  readonly requiresIdentifyingUserAgent: boolean;
  /** Binary frames are dropped silently (the alternate server's way) instead of closing with 4000. */
  readonly ignoresBinaryFrames: boolean;
  /** `null`: no limit. */
  readonly rateLimit: CloudRateLimit | null;
}

/**
 * The sandbox's choice for the platform (its real limits are not public): 10 messages a second
 * sustained, bursts of 30. A client that keeps the default 0.1 s between sets never meets it.
 */
export const PLATFORM_RATE_LIMIT: CloudRateLimit = { perSecond: 10, burst: 30 };
/** The alternate server's web client sends at most one frame per 50 ms: 20 a second, bursts of 40. */
export const ALTERNATE_RATE_LIMIT: CloudRateLimit = { perSecond: 20, burst: 40 };

export function platformPolicy(rateLimit: CloudRateLimit | null = PLATFORM_RATE_LIMIT): CloudPolicy {
  return {
    kind: 'platform',
    lengthLimit: PLATFORM_LENGTH_LIMIT,
    allowNonNumeric: false,
    requiresSession: true,
    refusesPlatformCookie: false,
    requiresIdentifyingUserAgent: false,
    ignoresBinaryFrames: false,
    rateLimit,
  };
}

export function alternatePolicy(rateLimit: CloudRateLimit | null = ALTERNATE_RATE_LIMIT): CloudPolicy {
  return {
    kind: 'alternate',
    lengthLimit: ALTERNATE_LENGTH_LIMIT,
    // TurboWarp's cloud-server takes digits only (up to 100 000 of them) and drops text silently.
    allowNonNumeric: false,
    requiresSession: false,
    refusesPlatformCookie: true,
    requiresIdentifyingUserAgent: true,
    ignoresBinaryFrames: true,
    rateLimit,
  };
}

/** Longest variable name, prefix included (a bound for memory, not a platform rule). */
const MAX_NAME_LENGTH = 1024;

/** True for a name the server keeps: `☁ ` and at least one more character. */
export function acceptsName(name: string): boolean {
  return name.startsWith(CLOUD_PREFIX) && name.length > CLOUD_PREFIX.length && name.length <= MAX_NAME_LENGTH;
}

/** True for a value the policy keeps; the others are dropped silently, as real servers do. */
export function acceptsValue(policy: CloudPolicy, value: unknown): value is string | number {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return false;
    text = numberText(value); // as the client writes numbers: never in exponent form
  } else if (typeof value === 'string') {
    text = value;
  } else {
    return false;
  }
  if (text.length > policy.lengthLimit) return false;
  if (policy.allowNonNumeric) return true;
  return policy.kind === 'alternate' ? isAlternateNumeric(text) : isNumericValue(text);
}

const ALTERNATE_NUMERIC = /^-?\d*\.?\d*$/;

/**
 * The alternate server's own numeric rule, edge cases included: an optional leading `-`, then
 * digits and at most one `.`, in any amount — so `""`, `"5."` and `"-."` pass, `"-"` and `"."` do not.
 */
function isAlternateNumeric(text: string): boolean {
  return text !== '-' && text !== '.' && ALTERNATE_NUMERIC.test(text);
}
