import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What every fake hands back: where it listens and how to stop it. */
export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

export type FakeHandler = (request: IncomingMessage, response: ServerResponse, url: URL) => void | Promise<void>;

/** A node:http server on 127.0.0.1 with an ephemeral port; `url` is its origin. */
export async function listenLocally(handler: FakeHandler): Promise<LocalServer> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    Promise.resolve(handler(request, response, url)).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets from fetch would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

export async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export function sendText(response: ServerResponse, status: number, body: string, contentType = 'text/plain'): void {
  response.writeHead(status, { 'content-type': contentType });
  response.end(body);
}

export function redirect(response: ServerResponse, location: string | URL): void {
  response.writeHead(302, { location: String(location) });
  response.end();
}
