import type { Socket } from 'socket.io';
import { nestsDeeperThan, tooDeepMessage } from '../schema/json-depth';
import type { AckError, ClientToServerEvents } from '../schema/realtime';
import { UNMATCHED_ROUTE } from '../src/observability/request-observer';

/** An event dropped before any handler: its route (the event's name, or UNMATCHED_ROUTE), status, and when its check began. */
export type RefusedEvent = (route: string, status: number, started: number) => void;

const KNOWN_EVENTS: ReadonlySet<string> = new Set<keyof ClientToServerEvents>([
  'lobby:subscribe',
  'lobby:unsubscribe',
  'lobbies:subscribe',
  'lobby:command',
  'thread:subscribe',
  'thread:unsubscribe',
]);

/**
 * Runs before every handler of one socket. An event no handler knows, or one whose payload is
 * over the advertised per-event limit, is dropped; when the client asked for an acknowledgement
 * it gets `{error, status}` (400, 413) instead of silence. So is one nested past MAX_JSON_DEPTH.
 * Each is reported to `refused` (the access log and metrics), asked an answer or not. (A frame over the transport's own
 * limit, twice this one, never reaches here: socket.io closes the connection, see README.)
 */
export function guardSocketEvents(
  socket: Pick<Socket, 'use' | 'disconnect'>,
  maxEventBytes: number,
  onFault: (error: unknown) => void,
  areaEvents: ReadonlySet<string> = new Set(),
  refused: RefusedEvent = () => undefined,
): void {
  socket.use((packet, next) => {
    try {
      check(packet, next);
    } catch (error) {
      // The last line for one socket: a throw here would unwind into uWS and end the process.
      onFault(error);
      socket.disconnect(true);
    }
  });

  function check(packet: unknown[], next: () => void): void {
    const started = performance.now();
    const [event, ...args] = packet;
    const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as (answer: AckError) => void) : undefined;
    const refuse = (route: string, answer: AckError) => {
      ack?.(answer);
      refused(route, answer.status, started);
    };
    if (typeof event !== 'string' || !(KNOWN_EVENTS.has(event) || areaEvents.has(event))) return refuse(UNMATCHED_ROUTE, { error: 'event: unknown event name', status: 400 });
    // Depth first: the size below is measured with JSON.stringify, which recurses.
    if (args.some((arg) => nestsDeeperThan(arg))) return refuse(event, { error: tooDeepMessage('payload'), status: 400 });
    if (args.length > 0 && Buffer.byteLength(JSON.stringify(args)) > maxEventBytes) return refuse(event, { error: `event payload over ${maxEventBytes} bytes`, status: 413 });
    next();
  }
}
