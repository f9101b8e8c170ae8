import { createSocket } from 'node:dgram';
import {
  A2S_INFO,
  A2S_PLAYER,
  decodeInfo,
  decodePlayers,
  INFO_PAYLOAD,
  NO_CHALLENGE,
  packetKind,
  S2A_INFO,
  S2A_PLAYER,
  S2C_CHALLENGE,
  SIMPLE_HEADER,
  type PlayerEntry,
  type ServerInfo,
} from './a2s-packets';

export interface QueryTarget {
  host: string;
  port: number;
  /** For the whole exchange, challenge included; default 1.5 s. */
  timeoutMs?: number;
}

/**
 * Asks one A2S question and answers the challenge if the server sends one. Rejects when the
 * server stays silent past the timeout: the caller decides what "unreachable" means.
 */
async function ask(target: QueryTarget, kind: number, payload: Buffer, expect: number): Promise<Buffer> {
  const socket = createSocket('udp4');
  const timeoutMs = target.timeoutMs ?? 1_500;
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`A2S query to ${target.host}:${target.port} timed out`)), timeoutMs);
      const send = (challenge: Buffer) =>
        socket.send(Buffer.concat([SIMPLE_HEADER, Buffer.from([kind]), payload, challenge]), target.port, target.host);
      let challenges = 0;
      socket.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.on('message', (message) => {
        const got = packetKind(message);
        if (got === S2C_CHALLENGE && challenges++ < 3) {
          send(message.subarray(5, 9));
          return;
        }
        if (got !== expect) return;
        clearTimeout(timer);
        resolve(message);
      });
      send(kind === A2S_INFO ? Buffer.alloc(0) : NO_CHALLENGE);
    });
  } finally {
    socket.close();
  }
}

export async function queryInfo(target: QueryTarget): Promise<ServerInfo> {
  return decodeInfo(await ask(target, A2S_INFO, Buffer.from(INFO_PAYLOAD, 'binary'), S2A_INFO));
}

export async function queryPlayers(target: QueryTarget): Promise<PlayerEntry[]> {
  return decodePlayers(await ask(target, A2S_PLAYER, Buffer.alloc(0), S2A_PLAYER));
}

/** "host:port" as a query target. */
export function parseAddress(address: string, timeoutMs?: number): QueryTarget {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at), port: Number(address.slice(at + 1)), timeoutMs };
}
