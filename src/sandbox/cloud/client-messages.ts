/**
 * Reading the client's frames (WIRE.md §5): one JSON object per frame (a trailing `\n` is
 * allowed), with `method`, `user` and `project_id`, and the fields its method needs. Anything
 * else is a protocol error, which closes the connection with 4000 — except a handshake's missing
 * or malformed `user`, which the server judges as a bad username (4002), as the real ones do.
 */
import { parseJson } from '../../records/json.js';

type ClientMethod = 'handshake' | 'set' | 'create' | 'delete' | 'rename';
const METHODS: ReadonlySet<string> = new Set(['handshake', 'set', 'create', 'delete', 'rename']);

/** A message's deepest sensible nesting: an object holding a value (the value itself is checked later). */
const MAX_MESSAGE_DEPTH = 8;

/** A message the server understood. `value` is checked later, by the policy; a handshake's `user` may be `''`. */
export interface ClientMessage {
  method: ClientMethod;
  user: string;
  projectId: string;
  name?: string;
  value?: unknown;
  newName?: string;
}

type ParsedFrame = { ok: true; message: ClientMessage } | { ok: false; reason: string };

const fail = (reason: string): ParsedFrame => ({ ok: false, reason });

/** Parses one frame's text. */
export function parseClientFrame(text: string): ParsedFrame {
  const body = text.trim();
  if (body === '') return fail('empty frame');
  if (body.includes('\n')) return fail('one message per frame');
  let parsed: unknown;
  try {
    parsed = parseJson(body, MAX_MESSAGE_DEPTH);
  } catch {
    return fail('invalid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return fail('a message must be a JSON object');
  const fields = parsed as Record<string, unknown>;
  const { method, user } = fields;
  const projectId = fields.project_id;
  if (typeof method !== 'string' || !METHODS.has(method)) return fail('unknown method');
  const isHandshake = method === 'handshake';
  if (!isHandshake && (typeof user !== 'string' || user === '')) return fail('missing user');
  if ((typeof projectId !== 'string' || projectId === '') && typeof projectId !== 'number') {
    return fail('missing project_id');
  }
  const message: ClientMessage = {
    method: method as ClientMethod,
    user: typeof user === 'string' ? user : '',
    projectId: String(projectId),
  };
  if (isHandshake) return { ok: true, message };
  if (typeof fields.name !== 'string') return fail('missing name');
  message.name = fields.name;
  if (method === 'set' || method === 'create') {
    if (!('value' in fields)) return fail('missing value');
    message.value = fields.value;
  }
  if (method === 'rename') {
    if (typeof fields.new_name !== 'string') return fail('missing new_name');
    message.newName = fields.new_name;
  }
  return { ok: true, message };
}
