import { createServer, type Server, type Socket } from 'node:net';
import {
  encodeRconPacket,
  RconPacketReader,
  SERVERDATA_AUTH,
  SERVERDATA_AUTH_RESPONSE,
  SERVERDATA_EXECCOMMAND,
  SERVERDATA_RESPONSE_VALUE,
  splitBody,
} from '../source-rcon/rcon-packet';

export interface RconHandler {
  password(): string;
  execute(command: string): Promise<string>;
}

/**
 * The server side of Source RCON as srcds behaves: an AUTH answered by an empty RESPONSE_VALUE
 * and an AUTH_RESPONSE (id -1 when the password is wrong), commands only after auth, long answers
 * split into 4096-byte packets, and an empty RESPONSE_VALUE mirrored back (followed by the
 * 0x00000100 packet srcds adds) so clients can tell where a split answer ends.
 */
export async function listenRcon(handler: RconHandler, host: string, port = 0): Promise<Server> {
  const server = createServer((socket) => serve(socket, handler));
  // close() waits for open connections; a stopped game server drops its RCON clients instead.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const close = server.close.bind(server);
  server.close = (callback) => {
    for (const socket of sockets) socket.destroy();
    return close(callback);
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

function serve(socket: Socket, handler: RconHandler): void {
  const reader = new RconPacketReader();
  let authenticated = false;
  // Commands run in arrival order even when one awaits (the plugin's HTTP calls).
  let chain: Promise<void> = Promise.resolve();
  const send = (id: number, type: number, body: string) => {
    if (!socket.destroyed) socket.write(encodeRconPacket({ id, type, body }));
  };
  socket.on('error', () => undefined);
  socket.on('data', (chunk) => {
    let packets;
    try {
      packets = reader.push(chunk);
    } catch {
      socket.destroy();
      return;
    }
    for (const packet of packets) {
      chain = chain.then(async () => {
        if (packet.type === SERVERDATA_AUTH) {
          authenticated = packet.body === handler.password();
          const id = authenticated ? packet.id : -1;
          send(id, SERVERDATA_RESPONSE_VALUE, '');
          send(id, SERVERDATA_AUTH_RESPONSE, '');
          return;
        }
        // srcds drops the connection of a client that talks before authenticating.
        if (!authenticated) {
          socket.destroy();
          return;
        }
        if (packet.type === SERVERDATA_EXECCOMMAND) {
          const answer = await handler.execute(packet.body).catch((error: Error) => `error: ${error.message}\n`);
          for (const part of splitBody(answer)) send(packet.id, SERVERDATA_RESPONSE_VALUE, part);
        } else if (packet.type === SERVERDATA_RESPONSE_VALUE) {
          send(packet.id, SERVERDATA_RESPONSE_VALUE, '');
          send(packet.id, SERVERDATA_RESPONSE_VALUE, '\u0000\u0001\u0000\u0000');
        }
      });
    }
  });
}
