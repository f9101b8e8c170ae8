import { createSocket, type Socket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import {
  A2S_INFO,
  A2S_PLAYER,
  encodeInfo,
  encodePlayers,
  INFO_PAYLOAD,
  packetKind,
  S2C_CHALLENGE,
  SIMPLE_HEADER,
  type PlayerEntry,
  type ServerInfo,
} from '../source-query/a2s-packets';

export interface QueryHandler {
  info(): ServerInfo;
  players(): PlayerEntry[];
}

/**
 * A2S_INFO and A2S_PLAYER over UDP with the challenge handshake: a request without the current
 * challenge gets S2C_CHALLENGE, the same request with it gets the answer. The challenge is one
 * per listener that rotates, as the real servers' per-address ones do in effect.
 */
export async function listenA2s(handler: QueryHandler, host: string, port = 0): Promise<Socket> {
  const socket = createSocket('udp4');
  let challenge = randomBytes(4);
  const rotation = setInterval(() => (challenge = randomBytes(4)), 30_000);
  rotation.unref();
  socket.on('close', () => clearInterval(rotation));
  const challengeReply = () => Buffer.concat([SIMPLE_HEADER, Buffer.from([S2C_CHALLENGE]), challenge]);
  socket.on('message', (message, peer) => {
    const reply = (buffer: Buffer) => socket.send(buffer, peer.port, peer.address);
    const kind = packetKind(message);
    if (kind === A2S_INFO) {
      const payloadEnd = 5 + INFO_PAYLOAD.length;
      if (message.toString('binary', 5, payloadEnd) !== INFO_PAYLOAD) return;
      const given = message.subarray(payloadEnd, payloadEnd + 4);
      reply(given.equals(challenge) ? encodeInfo(handler.info()) : challengeReply());
    } else if (kind === A2S_PLAYER) {
      const given = message.subarray(5, 9);
      reply(given.equals(challenge) ? encodePlayers(handler.players()) : challengeReply());
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => resolve());
  });
  return socket;
}
