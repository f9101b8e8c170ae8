import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { ExchangeDeps } from '../src/door/exchange';
import { requestIdOf } from '../src/door/request-id';
import { notifyObservers, UNMATCHED_ROUTE } from '../src/observability/request-observer';
import type { UwsApp } from './uws-host';
import { endNative } from './native-door';

/** Who hears of a refusal sent before the exchange ran: the exchange's own observers (access log, metrics). */
export type RefusalDeps = Pick<ExchangeDeps, 'observers' | 'logger'>;

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** A body that stalls longer than this between chunks is answered 408 (by the adapter, or the native routes). */
export const READ_BODY_MAX_MS = 5_000;

interface Refusal {
  status: string;
  error: string;
  /** The request's framing is ambiguous: answer on the next turn (see `refuseAmbiguous`). */
  ambiguous?: boolean;
  /** The body the client declared and is still sending (0 without one; Infinity when chunked). */
  unreadBytes: number;
}

/** Longest request target (path and query) accepted; a longer one is answered 414. */
export const MAX_TARGET_LENGTH = 8 * 1024;

/**
 * What is wrong with a request's framing, or null. uWS's parser takes the first of several
 * Content-Length headers; a proxy in front may take the last, which is how requests are
 * smuggled, so two different lengths are refused. (uWS itself drops a connection that sends both
 * Content-Length and Transfer-Encoding, or a length that is not a number: docs/http-framing.md.)
 * A chunked body has no length to check against the limit before it is buffered: 411, send
 * Content-Length. A target over 8 KB is 414, as nginx's default answers.
 */
export function framingRefusal(req: HttpRequest, limit = MAX_JSON_BODY_BYTES, options: { chunked?: boolean } = {}): Refusal | null {
  const length = req.getHeader('content-length');
  const declared = length === '' ? (req.getHeader('transfer-encoding') === '' ? 0 : Number.POSITIVE_INFINITY) : Number(length);
  if (req.getUrl().length + (req.getQuery() ?? '').length > MAX_TARGET_LENGTH) {
    return { status: '414 URI Too Long', error: `request target over ${MAX_TARGET_LENGTH} characters`, unreadBytes: declared };
  }
  if (length === '' && req.getHeader('transfer-encoding') === '') return null;
  const lengths: string[] = [];
  req.forEach((name, value) => {
    if (name === 'content-length') lengths.push(value.trim());
  });
  if (lengths.some((value) => value !== lengths[0])) return { status: '400 Bad Request', error: 'different Content-Length headers sent', ambiguous: true, unreadBytes: Number.POSITIVE_INFINITY };
  // A streamed route (the map upload) counts a chunked body against its limit as it arrives.
  if (lengths.length === 0 && options.chunked) return null;
  if (lengths.length === 0) return { status: '411 Length Required', error: 'chunked request bodies are not accepted; send Content-Length', unreadBytes: Number.POSITIVE_INFINITY };
  if (Number(lengths[0]) > limit) return { status: '413 Payload Too Large', error: `request body over ${limit} bytes`, unreadBytes: declared };
  return null;
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
 * specific and so are not affected; the native GET routes call `framingRefusal` themselves.
 */
export function installBodySizeGuard(app: UwsApp, deps: RefusalDeps, limit = MAX_JSON_BODY_BYTES): void {
  const guard = (res: HttpResponse, req: HttpRequest) => {
    const refusal = framingRefusal(req, limit);
    if (refusal) return sendRefusal(res, req, refusal, deps);
    req.setYield(true);
  };
  // Per method: uWS takes one `any` per pattern, and express's catch-all is that one.
  for (const method of ['get', 'head', 'post', 'put', 'patch', 'del', 'options'] as const) app[method]('/*', guard);
}
