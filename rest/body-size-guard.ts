import type { UwsApp } from '../realtime/uws-host';

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * uwebsockets-express buffers the whole request body before express runs, with no limit. This
 * native route runs first for every method that carries a body and answers 413 to a declared
 * length over the limit, and to chunked bodies (no length to check), before a byte is buffered;
 * everything else yields to the express catch-all. Streaming uploads register their own native
 * routes, which are more specific and so are not affected.
 */
export function installBodySizeGuard(app: UwsApp, limit = MAX_JSON_BODY_BYTES): void {
  const guard = (res: import('uWebSockets.js').HttpResponse, req: import('uWebSockets.js').HttpRequest) => {
    const length = req.getHeader('content-length');
    const chunked = req.getHeader('transfer-encoding').toLowerCase().includes('chunked');
    if (chunked || (length !== '' && Number(length) > limit)) {
      res.cork(() => {
        res
          .writeStatus('413 Payload Too Large')
          .writeHeader('content-type', 'application/json')
          .writeHeader('connection', 'close')
          .end(JSON.stringify({ error: chunked ? 'chunked request bodies are not accepted; send Content-Length' : `request body over ${limit} bytes` }), true);
      });
      return;
    }
    req.setYield(true);
  };
  app.post('/*', guard);
  app.put('/*', guard);
  app.patch('/*', guard);
  app.del('/*', guard);
}
