import type { Namespace, Socket } from 'socket.io';
import type { UwsApp } from '../host/uws-host';
import type { LobbyFanout } from './lobby-fanout';

/** What uWS hands a behaviour's handlers: the socket, whose user data is engine.io's transport. */
interface DrainedSocket {
  getBufferedAmount(): number;
  getUserData(): { transport?: object };
}

/**
 * uWS skips a websocket's share of a publish while more than `maxBackpressure` bytes wait to be
 * sent to it, silently: a client too slow to read (or stalled) under a busy feed loses updates.
 * A later update shows it the gap (its version jumps, or a patch's base is not what it holds), but
 * if the skipped ones were the last of a burst, nothing would ever show it.
 *
 * uWS calls a behaviour's `drain` only for a socket that had data waiting, each time the kernel
 * takes some of it. Once such a socket has nothing waiting, it gets the last version of each lobby
 * it watches again (LobbyFanout.reannounce), which either it holds (and ignores) or tells it to
 * resync. Driven by the socket's own drain, not a timer: a 1 MB backlog that the kernel takes in
 * one go is gone between two looks of any timer (the slow-reader test missed its jump that way).
 *
 * engine.io registers its websocket behaviour itself (`attachApp`) and sets no `drain`; this
 * wraps `uws.ws` so the behaviour it registers carries ours. Call before `attachApp`; `attach`
 * the namespace and fan-out once they exist.
 */
export function watchBackpressure(uws: UwsApp): { attach(nsp: Namespace, fanout: LobbyFanout): void; stop(): void } {
  let target: { nsp: Namespace; fanout: LobbyFanout } | undefined;
  const carried = new WeakMap<object, Socket>();
  const register = uws.ws.bind(uws);
  uws.ws = ((pattern: string, behavior: Parameters<UwsApp['ws']>[1]) =>
    register(pattern, {
      ...behavior,
      drain: (ws) => {
        behavior.drain?.(ws);
        if (target) drained(ws as unknown as DrainedSocket, carried, target.fanout);
      },
    })) as UwsApp['ws'];
  return {
    attach(nsp, fanout) {
      target = { nsp, fanout };
      // Which socket a drained transport carries, found without walking every socket on each drain.
      nsp.on('connection', (socket) => {
        carried.set(socket.conn.transport, socket);
        socket.conn.on('upgrade', (transport: object) => carried.set(transport, socket));
      });
    },
    stop() {
      target = undefined;
    },
  };
}

function drained(ws: DrainedSocket, carried: WeakMap<object, Socket>, fanout: LobbyFanout): void {
  if (ws.getBufferedAmount() > 0) return;
  const transport = ws.getUserData().transport;
  const socket = transport === undefined ? undefined : carried.get(transport);
  if (socket?.connected) fanout.reannounce(socket.id, socket.rooms);
}
