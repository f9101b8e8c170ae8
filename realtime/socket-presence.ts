import type { Logger } from 'pino';
import type { Server } from 'socket.io';
import type { SocketData } from '../schema/realtime';
import type { PresenceTouch } from './realtime-ports';

/** Well inside the 5-minute online window, so a quiet but connected user never drops out of it. */
const HEARTBEAT_MS = 60_000;

/**
 * Keeps the users of this instance's session sockets online: one pass a minute over the local
 * sockets, one live-store write per user at most (Presence throttles), never a database write.
 * Returns the stop function.
 */
export function keepSessionsOnline(
  io: Pick<Server<never, never, never, SocketData>, 'of'>,
  presence: PresenceTouch,
  logger: Logger,
  everyMs = HEARTBEAT_MS,
): () => void {
  const timer = setInterval(() => {
    const users = new Set<number>();
    for (const socket of io.of('/').sockets.values()) {
      if (socket.data.credential === 'session' && socket.data.userId !== null) users.add(socket.data.userId);
    }
    for (const userId of users) {
      presence.touch(userId)?.catch((error: unknown) => logger.warn({ err: error }, 'presence heartbeat failed'));
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
