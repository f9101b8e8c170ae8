import uWS from 'uWebSockets.js';

export type UwsApp = uWS.TemplatedApp;
export type UwsBuild = 'native' | 'fallback';

/**
 * The pinned uWS package falls back to a JavaScript imitation off Node 16-20 (or with
 * UWS_USE_FALLBACK=1); that imitation breaks express requests and websockets, so the server
 * refuses to start on it rather than run half-broken.
 */
export function uwsBuild(): UwsBuild {
  return 'SSLApp' in uWS ? 'native' : 'fallback';
}

export function createUwsApp(): UwsApp {
  if (uwsBuild() !== 'native') {
    throw new Error(
      `uWebSockets.js loaded its JavaScript fallback (Node ${process.versions.node}): run on Node 20, or point the "uWebSockets.js" alias in package.json at the official release (see README)`,
    );
  }
  return uWS.App();
}

/**
 * Ends a native answer (inside `cork`, after the status and headers). uWS does not know HEAD:
 * its routes get HEAD only when registered for it, and `end(body)` would send the body, which
 * the client then reads as the start of the next response. For HEAD the headers carry the length
 * a GET would get and no body follows.
 */
export function endAnswer(res: uWS.HttpResponse, body: Buffer | string, head: boolean): void {
  if (!head) {
    res.end(body);
    return;
  }
  res.writeHeader('content-length', String(Buffer.byteLength(body)));
  res.endWithoutBody();
}

/**
 * Reads a native route's path parameters by name, as uWS matched them (raw, not percent-decoded).
 * `path` is a route contract's path: express's `:name` syntax, which uWS shares.
 */
export function pathParameterReader(path: string): (req: uWS.HttpRequest) => Record<string, string> {
  const names = [...path.matchAll(/:(\w+)/g)].map(([, name]) => name);
  return (req) => {
    const raw: Record<string, string> = {};
    names.forEach((name, i) => (raw[name] = req.getParameter(i) ?? ''));
    return raw;
  };
}

/** Registers one handler for GET and HEAD of a native route; it learns which it is answering. */
export function getAndHead(app: UwsApp, path: string, handler: (res: uWS.HttpResponse, req: uWS.HttpRequest, head: boolean) => void): void {
  app.get(path, (res, req) => handler(res, req, false));
  app.head(path, (res, req) => handler(res, req, true));
}

export interface Listening {
  port: number;
  /** Stops accepting connections; open ones are left to finish. */
  stopAccepting(): void;
}

export function listen(app: UwsApp, host: string, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket) => {
      if (!socket) {
        reject(new Error(`could not listen on ${host}:${port} (address in use or not available)`));
        return;
      }
      let open = true;
      resolve({
        port: uWS.us_socket_local_port(socket as unknown as uWS.us_socket),
        stopAccepting: () => {
          if (open) uWS.us_listen_socket_close(socket);
          open = false;
        },
      });
    });
  });
}
