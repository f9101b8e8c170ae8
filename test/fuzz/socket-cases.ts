import fc from 'fast-check';
import type { FuzzContext } from './http-cases';
import { hostileJson } from './hostile-values';

export interface SocketCase {
  /** Which of the fuzzer's sockets (admin, member, anonymous) sends it. */
  socket: number;
  event: string;
  args: unknown[];
  /** Sent with an acknowledgement the server must answer. */
  ack: boolean;
}

/** Names socket.io-client refuses to emit; they never reach a server. */
const RESERVED = new Set(['connect', 'connect_error', 'disconnect', 'disconnecting', 'newListener', 'removeListener']);
/** Below the transport's 128 KB frame limit: a bigger frame closes the socket (abuse-limits.test.ts). */
const MAX_FRAME_CHARS = 120_000;

const EVENTS = ['lobby:subscribe', 'lobby:unsubscribe', 'lobbies:subscribe', 'lobby:command'] as const;
const COMMAND_TYPES = ['join', 'leave', 'chat', 'pick-slot', 'kick', 'set-captain', 'start-draft', 'pick', 'unpick', 'drop-to-pool', 'ready', 'keep-ready', 'force-start', 'set-class', 'vote-map', 'report', 'party-join'];

/** One socket event: a known one with hostile payloads, or one no handler knows. */
export function socketCase(context: FuzzContext): fc.Arbitrary<SocketCase> {
  const code = fc.oneof(fc.constant(context.known.code), hostileJson);
  const payload = fc.oneof(
    { weight: 4, arbitrary: fc.record({ code, type: fc.oneof(fc.constantFrom(...COMMAND_TYPES), hostileJson), message: hostileJson, user_id: hostileJson, slot: hostileJson, map: hostileJson, class: hostileJson, team: hostileJson }, { requiredKeys: ['code', 'type'] }) },
    { weight: 2, arbitrary: hostileJson },
    // Just over the advertised 64 KB per event (answered 413); frames over 128 KB close the socket and are tested apart.
    { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 100_000 }).map((n) => ({ code: 'x'.repeat(n), type: 'chat' })) },
  );
  const unknownEvent = fc.oneof(fc.constantFrom('lobby:explode', 'lobbies:command', '__proto__', 'constructor', ''), fc.string({ maxLength: 30 })).filter((name) => !RESERVED.has(name));
  const event = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...EVENTS) }, { weight: 1, arbitrary: unknownEvent });
  return fc
    .record({
      socket: fc.nat(2),
      event,
      args: fc.array(payload, { minLength: 0, maxLength: 2 }),
      ack: fc.boolean(),
    })
    .filter(({ args }) => Buffer.byteLength(JSON.stringify(args)) < MAX_FRAME_CHARS);
}
