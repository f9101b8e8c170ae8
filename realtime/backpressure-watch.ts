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
export function watchBackpressure(uws: UwsApp, maxBackpressure: number): { attach(nsp: Namespace, fanout: LobbyFanout): void; stop(): void } {
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
        guardAcks(socket.conn.transport as AckCarrier, socket, maxBackpressure);
        socket.conn.on('upgrade', (transport: object) => {
          carried.set(transport, socket);
          guardAcks(transport as AckCarrier, socket, maxBackpressure);
        });
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

/** An engine.io transport as `guardAcks` sees it: on uWS, `socket` is the websocket. */
interface AckCarrier {
  send(packets: Array<{ type: string; data?: unknown }>): void;
  socket?: { getBufferedAmount?(): number };
}

/**
 * uWS also drops a direct send to a socket over `maxBackpressure` (send answers DROPPED), and
 * engine.io does not look: an acknowledgement (a resubscribe's snapshot, a command's answer) to a
 * client that far behind would be lost, and the client would wait for it for good. Such a
 * connection is closed instead, before the answer is dropped: its client connects again by
 * itself (a transport close, not a server's disconnect) and asks again.
 */
function guardAcks(transport: AckCarrier, socket: Socket, maxBackpressure: number): void {
  const ws = transport.socket;
  if (typeof ws?.getBufferedAmount !== 'function') return; // polling: nothing is dropped
  const send = transport.send.bind(transport);
  transport.send = (packets) => {
    if (packets.some(isAck) && ws.getBufferedAmount!() > maxBackpressure) return void setImmediate(() => socket.conn.close());
    send(packets);
  };
}

/** socket.io's ACK and BINARY_ACK packets, as engine.io message packets carry them. */
const isAck = (packet: { type: string; data?: unknown }): boolean =>
  packet.type === 'message' && typeof packet.data === 'string' && (packet.data[0] === '3' || packet.data[0] === '6');

