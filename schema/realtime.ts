import * as v from 'valibot';
import type { ThreadPostPush, ThreadSummary } from './community';
import type { LobbyChatMessage, LobbyDetail, LobbySummary } from './lobby';
import type { TeamView } from './teams';

/**
 * The socket.io protocol (docs/design/CONTRACT.md "Realtime protocol"), exported for clients to import:
 * `io<ServerToClientEvents, ClientToServerEvents>(url)`.
 */

/** Any string is well-formed here; one that cannot name a lobby is answered 404, as on the REST path. */
const LobbyCode = v.string('code must be a string');

/** `team:subscribe {id}`: the team's room; acked with the team, then `team:update` in version order. */
export const TeamSubscribePayload = v.object({ id: v.pipe(v.number('id must be a number'), v.integer('id must be an integer'), v.minValue(1, 'id must be positive')) });
export type TeamSubscribePayload = v.InferOutput<typeof TeamSubscribePayload>;

/**
 * `patches: true` asks for `lobby:patch` instead of `lobby:update` after the snapshot (a full
 * `lobby:update` still comes whenever a patch could not follow on from what the client holds).
 */
export const LobbySubscribePayload = v.object({ code: LobbyCode, patches: v.optional(v.boolean('patches must be a boolean')) });
export type LobbySubscribePayload = v.InferOutput<typeof LobbySubscribePayload>;

/**
 * `type` is the lobby route's last path segment (`cancel` for DELETE /api/lobbies/{code}); every
 * other field is that route's body.
 */
export const LobbyCommandPayload = v.looseObject({
  code: LobbyCode,
  type: v.pipe(v.string('type must be a string'), v.regex(/^[a-z][a-z-]{0,31}$/, 'type must be a lobby command name')),
});
export type LobbyCommandPayload = v.InferOutput<typeof LobbyCommandPayload>;

/** A refusal: the REST route's status and error; `retry_after_s` where the route would send Retry-After (a 429, a 503). */
export type AckError = { error: string; status: number; retry_after_s?: number };
/** A command's answer: the REST route's status and body (`{ok: true, status: 201, match_id}`), or its refusal. */
export type CommandAck = ({ ok: true; status: number } & Record<string, unknown>) | AckError;
export type SubscribeAck = { lobby: LobbyDetail } | AckError;
export type LobbiesAck = { lobbies: LobbySummary[] } | AckError;

/**
 * The whole lobby after a change (`version` + 1). After the subscribe ack a subscriber gets exactly
 * the versions above the snapshot's, each once, in order; a version that skips one (a client too
 * slow to read its socket loses messages) means: subscribe again for a fresh snapshot.
 */
export interface LobbyUpdate {
  code: string;
  version: number;
  lobby: LobbyDetail;
  /**
   * Set only on the last version sent again to a socket that may have had frames skipped
   * (realtime/backpressure-watch.ts): a client holding this version ignores it; any other
   * delivery of a version the client holds is a server fault.
   */
  reannounced?: true;
}

/** One RFC 6902 operation (only these three are sent); `path` is an RFC 6901 pointer into the LobbyDetail. */
export type LobbyPatchOp = { op: 'add' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string };

/**
 * For a `patches: true` subscriber: `ops` turn the LobbyDetail at `base_version` (always
 * `version - 1`) into the one at `version`. A client holding another version than `base_version`
 * subscribes again; the server itself sends a full `lobby:update` instead whenever it cannot
 * vouch for the base (after a gap in what it received).
 */
export interface LobbyPatch {
  code: string;
  version: number;
  base_version: number;
  ops: LobbyPatchOp[];
}

export interface ClientToServerEvents {
  'lobby:subscribe': (payload: LobbySubscribePayload, ack: (answer: SubscribeAck) => void) => void;
  'lobby:unsubscribe': (payload: LobbySubscribePayload, ack?: (answer: { ok: true } | AckError) => void) => void;
  'lobbies:subscribe': (ack: (answer: LobbiesAck) => void) => void;
  'lobby:command': (payload: LobbyCommandPayload, ack: (answer: CommandAck) => void) => void;
  /** A forum thread's posts as they are written, edited or deleted (realtime/thread-socket-handlers.ts). */
  'thread:subscribe': (payload: { id: number }, ack: (answer: { thread: ThreadSummary } | AckError) => void) => void;
  'thread:unsubscribe': (payload: { id: number }, ack?: (answer: { ok: true } | AckError) => void) => void;
  'team:subscribe': (payload: TeamSubscribePayload, ack: (answer: { team: TeamView } | AckError) => void) => void;
  'team:unsubscribe': (payload: TeamSubscribePayload, ack?: (answer: { ok: true } | AckError) => void) => void;
}

export interface ServerToClientEvents {
  'lobby:update': (payload: LobbyUpdate) => void;
  'lobby:patch': (payload: LobbyPatch) => void;
  'lobby:chat': (payload: { code: string; message: LobbyChatMessage }) => void;
  'lobbies:update': (payload: { lobbies: LobbySummary[] }) => void;
  'thread:post': (payload: ThreadPostPush) => void;
  'team:update': (payload: { id: number; version: number; team: TeamView }) => void;
}

export type InterServerEvents = Record<string, never>;

/** What the handshake established; kept small because connection state recovery stores it. */
export interface SocketData {
  userId: number | null;
  credential: 'session' | 'premium' | 'admin' | 'anonymous';
}

/** Why a handshake was refused: `connect_error` carries it as `error.data`. */
export interface HandshakeRefusal {
  status: number;
  error: string;
  /** Seconds to wait before trying again (a key over its rate limit: REST's Retry-After). */
  retry_after?: number;
}
