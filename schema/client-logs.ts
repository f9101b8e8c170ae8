import * as v from 'valibot';
import { IsoDateTime } from './common';
import { PageQuery } from './paging';

export const CLIENT_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const CLIENT_LOG_SOURCES = ['web', 'plugin', 'bot'] as const;
/** The largest `context` accepted, as JSON text in bytes. */
export const MAX_CONTEXT_BYTES = 4 * 1024;
/** The largest request body the route reads (413 beyond it, before a byte is buffered). */
export const MAX_CLIENT_LOG_BODY_BYTES = 64 * 1024;
export const MAX_ENTRIES_PER_REQUEST = 100;

const jsonBytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length;
/** Postgres text and jsonb cannot hold U+0000: refused here as a 400 rather than failing the insert (and every batch sharing it). */
const NUL = '\u0000';
const holdsNul = (value: unknown): boolean => {
  let found = false;
  JSON.stringify(value, (key, inner: unknown) => {
    if (key.includes(NUL) || (typeof inner === 'string' && inner.includes(NUL))) found = true;
    return inner;
  });
  return found;
};

export const ClientLogEntryInput = v.object({
  level: v.picklist(CLIENT_LOG_LEVELS, 'must be one of debug, info, warn, error'),
  message: v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(2000, 'must be at most 2000 characters'),
    v.check((message) => !message.includes(NUL), 'must not contain U+0000'),
  ),
  at: IsoDateTime,
  source: v.optional(v.picklist(CLIENT_LOG_SOURCES, 'must be one of web, plugin, bot')),
  context: v.optional(
    v.pipe(
      v.record(v.string(), v.unknown()),
      v.check((context) => jsonBytes(context) <= MAX_CONTEXT_BYTES, `must be at most ${MAX_CONTEXT_BYTES} bytes as JSON`),
      v.check((context) => !holdsNul(context), 'must not contain U+0000'),
    ),
  ),
});
export type ClientLogEntryInput = v.InferOutput<typeof ClientLogEntryInput>;

export const ClientLogBody = v.object({
  entries: v.pipe(
    v.array(ClientLogEntryInput),
    v.minLength(1, 'must hold at least one entry'),
    v.maxLength(MAX_ENTRIES_PER_REQUEST, `must hold at most ${MAX_ENTRIES_PER_REQUEST} entries`),
  ),
});
export type ClientLogBody = v.InferOutput<typeof ClientLogBody>;

export const ClientLogQuery = v.object({
  level: v.optional(v.picklist(CLIENT_LOG_LEVELS, 'must be one of debug, info, warn, error')),
  source: v.optional(v.picklist(CLIENT_LOG_SOURCES, 'must be one of web, plugin, bot')),
  since: v.optional(IsoDateTime),
  q: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'))),
  ...PageQuery,
});
export type ClientLogQuery = v.InferOutput<typeof ClientLogQuery>;

export const ClientLogView = v.object({
  id: v.number(),
  level: v.picklist(CLIENT_LOG_LEVELS),
  message: v.string(),
  /** When the client says it happened. */
  at: IsoDateTime,
  source: v.nullable(v.picklist(CLIENT_LOG_SOURCES)),
  context: v.nullable(v.record(v.string(), v.unknown())),
  received_at: IsoDateTime,
  user_id: v.nullable(v.number()),
  /** HMAC of the client address with a server secret: equal addresses compare equal, the address itself is not kept. */
  address_hash: v.string(),
  user_agent: v.nullable(v.string()),
});
export type ClientLogView = v.InferOutput<typeof ClientLogView>;

export const ClientLogPage = v.object({ entries: v.array(ClientLogView), total: v.number(), page: v.number(), limit: v.number() });
export type ClientLogPage = v.InferOutput<typeof ClientLogPage>;
