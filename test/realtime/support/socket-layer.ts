import pino from 'pino';
import { attachSocketServer, type SocketServer, type SocketServerOptions } from '../../../realtime/socket-server';
import { createUwsApp, listen } from '../../../host/uws-host';
import { fakeLobbyServices, type FakeServices } from './fake-lobby-services';
import { closeAllClients } from './socket-client';

export interface SocketLayer {
  sockets: SocketServer;
  services: FakeServices;
  url: string;
  close(): Promise<void>;
}

/** The socket layer alone on a bare uWS app with fake lobby services, on an ephemeral port (one per test file: one socket.io server per process). */
export async function startSocketLayer(options: Partial<SocketServerOptions> = {}): Promise<SocketLayer> {
  const app = createUwsApp();
  const services = fakeLobbyServices();
  const sockets = await attachSocketServer(app, { logger: pino({ level: 'silent' }), ...options });
  sockets.serve(services);
  const listening = await listen(app, '127.0.0.1', 0);
  return {
    sockets,
    services,
    url: `http://127.0.0.1:${listening.port}`,
    async close() {
      closeAllClients();
      listening.stopAccepting();
      await sockets.close();
    },
  };
}
