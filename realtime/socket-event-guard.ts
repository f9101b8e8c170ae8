import type { Socket } from 'socket.io';
import type { AckError, ClientToServerEvents } from '../schema/realtime';

const KNOWN_EVENTS: ReadonlySet<string> = new Set<keyof ClientToServerEvents>([
  'lobby:subscribe',
  'lobby:unsubscribe',
  'lobbies:subscribe',
  'lobby:command',
]);

/**
 * Runs before every handler of one socket. An event no handler knows, or one whose payload is
 * over the advertised per-event limit, is dropped; when the client asked for an acknowledgement
 * it gets `{error, status}` (400, 413) instead of silence. (A frame over the transport's own
 * limit, twice this one, never reaches here: socket.io closes the connection, see README.)
 */
export function guardSocketEvents(socket: Pick<Socket, 'use'>, maxEventBytes: number): void {
  socket.use((packet, next) => {
    const [event, ...args] = packet as unknown[];
    const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as (answer: AckError) => void) : undefined;
    if (typeof event !== 'string' || !KNOWN_EVENTS.has(event)) {
      ack?.({ error: 'event: unknown event name', status: 400 });
      return;
    }
    if (args.length > 0 && Buffer.byteLength(JSON.stringify(args)) > maxEventBytes) {
      ack?.({ error: `event payload over ${maxEventBytes} bytes`, status: 413 });
      return;
    }
    next();
  });
}
