import type { Socket } from 'socket.io';
import { nestsDeeperThan, tooDeepMessage } from '../schema/json-depth';
import type { AckError, ClientToServerEvents } from '../schema/realtime';

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
 * it gets `{error, status}` (400, 413) instead of silence. So is one nested past MAX_JSON_DEPTH. (A frame over the transport's own
 * limit, twice this one, never reaches here: socket.io closes the connection, see README.)
 */
export function guardSocketEvents(
  socket: Pick<Socket, 'use' | 'disconnect'>,
  maxEventBytes: number,
  onFault: (error: unknown) => void,
  areaEvents: ReadonlySet<string> = new Set(),
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
    const [event, ...args] = packet;
    const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as (answer: AckError) => void) : undefined;
    if (typeof event !== 'string' || !(KNOWN_EVENTS.has(event) || areaEvents.has(event))) {
      ack?.({ error: 'event: unknown event name', status: 400 });
      return;
    }
    // Depth first: the size below is measured with JSON.stringify, which recurses.
    if (args.some((arg) => nestsDeeperThan(arg))) {
      ack?.({ error: tooDeepMessage('payload'), status: 400 });
      return;
    }
    if (args.length > 0 && Buffer.byteLength(JSON.stringify(args)) > maxEventBytes) {
      ack?.({ error: `event payload over ${maxEventBytes} bytes`, status: 413 });
      return;
    }
    next();
  }
}
