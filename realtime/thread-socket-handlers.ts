import type { ThreadPostPush, ThreadSummary } from '../schema/community';
import { ThreadSubscribePayload } from '../schema/community';
import type { RoomFeed } from './room-feed';
import type { SocketServer } from './socket-server';

export const THREAD_ROOM_PREFIX = 'thread:';
export const threadRoom = (id: number) => `${THREAD_ROOM_PREFIX}${id}`;

/**
 * `thread:subscribe {id}` acks `{thread}` as the socket's user may see it (hidden threads: admins
 * only, others get the REST route's 404); `thread:post` follows for every new or changed post.
 */
export function threadFeed(visibleThread: (userId: number | null, threadId: number) => Promise<ThreadSummary>): RoomFeed<{ thread: ThreadSummary }> {
  return {
    subscribe: 'thread:subscribe',
    unsubscribe: 'thread:unsubscribe',
    payload: ThreadSubscribePayload,
    room: threadRoom,
    read: async (id, userId) => ({ thread: await visibleThread(userId, id) }),
  };
}

/** A post change from the feed (any instance's, see ThreadPostFeed) to this instance's subscribers of its thread, each after its snapshot (RoomFanout; posts carry no version). */
export function deliverThreadPost(sockets: Pick<SocketServer, 'deliverToRoom'>, push: ThreadPostPush): void {
  sockets.deliverToRoom(threadRoom(push.thread_id), 'thread:post', push);
}
