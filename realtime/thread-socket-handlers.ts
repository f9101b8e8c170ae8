import type { Logger } from 'pino';
import type { Server, Socket } from 'socket.io';
import type { ThreadPostPush, ThreadSummary } from '../schema/community';
import { ThreadSubscribePayload } from '../schema/community';
import { parseInput } from '../schema/parse-input';
import type { AckError, ClientToServerEvents, InterServerEvents, ServerToClientEvents, SocketData } from '../schema/realtime';
import type { ErrorStatus } from './realtime-ports';

type LeagueSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type LeagueServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface ThreadSocketServices {
  /** The thread as the socket's user may see it (hidden ones: admins only); throws the REST route's 404. */
  visibleThread(userId: number | null, threadId: number): Promise<ThreadSummary>;
  errorStatus: ErrorStatus;
}

export const threadRoom = (id: number) => `thread:${id}`;

/**
 * `thread:subscribe {id}` joins the thread's room and acks `{thread}`; `thread:unsubscribe`
 * leaves it. Registered beside the lobby events on every connection (the handshake already ran).
 */
export function handleThreadEvents(io: LeagueServer, services: ThreadSocketServices, logger: Logger): void {
  io.on('connection', (socket: LeagueSocket) => {
    socket.on('thread:subscribe', (payload, ack) => {
      const answer = typeof ack === 'function' ? ack : () => undefined;
      subscribe(socket, services, payload).then(answer, (error: unknown) => {
        logger.error({ err: error, socketId: socket.id }, 'thread:subscribe failed');
        answer(failure(500, 'internal error'));
      });
    });
    socket.on('thread:unsubscribe', (payload, ack) => {
      const parsed = parseInput(ThreadSubscribePayload, payload, 'payload');
      if (parsed.ok) void socket.leave(threadRoom(parsed.value.id));
      if (typeof ack === 'function') ack(parsed.ok ? { ok: true } : failure(400, parsed.message));
    });
  });
}

async function subscribe(socket: LeagueSocket, services: ThreadSocketServices, payload: unknown): Promise<{ thread: ThreadSummary } | AckError> {
  const parsed = parseInput(ThreadSubscribePayload, payload, 'payload');
  if (!parsed.ok) return failure(400, parsed.message);
  const room = threadRoom(parsed.value.id);
  // Join before reading, as lobby:subscribe does: a post racing the read is delivered, never lost.
  await socket.join(room);
  try {
    return { thread: await services.visibleThread(socket.data.userId, parsed.value.id) };
  } catch (error) {
    await socket.leave(room);
    const known = services.errorStatus(error);
    if (!known) throw error;
    return failure(known.status, known.message);
  }
}

/**
 * A post change published by any instance (the live store's channel), sent to this instance's
 * subscribers of its thread: one room, no `except`, so socket.io on uWS makes it one native publish.
 */
export function deliverThreadPost(io: Pick<LeagueServer, 'local'>, message: string): void {
  const push = JSON.parse(message) as ThreadPostPush;
  io.local.to(threadRoom(push.thread_id)).emit('thread:post', push);
}

function failure(status: number, error: string): AckError {
  return { error, status };
}
