import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { ExchangeDeps } from '../src/door/exchange';
import { requestIdOf } from '../src/door/request-id';
import { notifyObservers, UNMATCHED_ROUTE } from '../src/observability/request-observer';
import type { UwsApp } from './uws-host';
import { endNative } from './native-door';
import { framingRefusalOf, MAX_JSON_BODY_BYTES, type FramingRules, type Refusal } from './request-framing';

/** Who hears of a refusal sent before the exchange ran: the exchange's own observers (access log, metrics). */
export type RefusalDeps = Pick<ExchangeDeps, 'observers' | 'logger'>;

/** A body that stalls longer than this between chunks is answered 408 (by the adapter, or the native routes). */
export const READ_BODY_MAX_MS = 5_000;

/**
 * The framing refusal (see request-framing.ts) of a head uWS holds, for the express catch-all
 * (installBodySizeGuard below), which reads no more of the head: its other Content-Length
 * headers are only looked for when it has one.
 */
function framingRefusal(req: HttpRequest, rules: FramingRules = {}): Refusal | null {
  const first = req.getHeader('content-length');
  let contentLength: string | undefined;
  if (first !== '') {
    const lengths: string[] = [];
    req.forEach((name, value) => {
      if (name === 'content-length') lengths.push(value);
    });
    contentLength = lengths.join(', ');
  }
  const transferEncoding = req.getHeader('transfer-encoding');
  const query = req.getQuery();
  const targetLength = req.getUrl().length + (query ? query.length + 1 : 0);
  return framingRefusalOf({ contentLength, transferEncoding: transferEncoding === '' ? undefined : transferEncoding, targetLength }, rules);
}

/**
 * Answers a refusal and closes the connection: at once when the body is unknown (chunked,
 * ambiguous), else after reading and discarding the declared body (native-door.ts `endNative`),
 * so a client still sending reads the answer rather than a reset. An ambiguous request is answered on the next turn instead of at once:
 * meanwhile uWS parses the rest of what it read, and a second request smuggled in there (by the
 * length uWS believed) aborts this response and closes the connection rather than being served.
 * Like every answer it carries a request id and reaches the access log (`route`: the template of
 * the native route that refused it, else 'unmatched').
 */
export function sendRefusal(res: HttpResponse, req: HttpRequest, refusal: Refusal, deps: RefusalDeps, route = UNMATCHED_ROUTE): void {
  const started = performance.now();
  // uWS's request is only valid during the route callback: read what the log needs now.
  const requestId = requestIdOf(req.getHeader('x-request-id') || undefined);
  const method = req.getCaseSensitiveMethod().toUpperCase();
  const status = Number.parseInt(refusal.status, 10);
  const write = () => {
    res.cork(() => {
      res.writeStatus(refusal.status).writeHeader('content-type', 'application/json').writeHeader('X-Request-Id', requestId);
      // A refusal always ends its connection: after the declared body when one is coming, else now.
      const lingers = refusal.unreadBytes > 0 && Number.isFinite(refusal.unreadBytes);
      endNative(res, JSON.stringify({ error: refusal.error }), { close: !lingers, unreadBytes: refusal.unreadBytes });
    });
    notifyObservers(deps.observers, { door: 'http', method, route, status, durationMs: performance.now() - started, requestId }, deps.logger);
  };
  if (!refusal.ambiguous) {
    write();
    return;
  }
  let aborted = false;
  res.onAborted(() => (aborted = true));
  setImmediate(() => {
    if (!aborted) write();
  });
}

/**
 * uwebsockets-express buffers the whole request body before express runs, with no limit. This
 * native route runs first for every request that no more specific native route takes, refuses
 * bad framing and declared lengths over the limit before a byte is buffered, and otherwise yields
 * to the express catch-all. Streaming uploads register their own native routes, which are more
 * specific and so are not affected; the other native routes check framing themselves (nativeFramingRefusal).
 */
export function installBodySizeGuard(app: UwsApp, deps: RefusalDeps, limit = MAX_JSON_BODY_BYTES): void {
  const guard = (res: HttpResponse, req: HttpRequest) => {
    const refusal = framingRefusal(req, { limit });
    if (refusal) return sendRefusal(res, req, refusal, deps);
    req.setYield(true);
  };
  // Per method: uWS takes one `any` per pattern, and express's catch-all is that one.
  for (const method of ['get', 'head', 'post', 'put', 'patch', 'del', 'options'] as const) app[method]('/*', guard);
}
