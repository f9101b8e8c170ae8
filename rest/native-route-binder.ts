import type { Logger } from 'pino';
import type { HttpResponse } from 'uWebSockets.js';
import type { BodyOf, ParamsOf, RouteContract } from '../schema/route-contract';
import { pathParameterReader, type UwsApp } from '../host/uws-host';
import { runExchange, type Authenticate, type ExchangeDeps } from '../src/door/exchange';
import { READ_BODY_MAX_MS, sendRefusal } from '../host/body-size-guard';
import { HttpError } from './http-error';
import { parseJsonBody } from './middleware/json-body';
import { NativeResponse, nativeFramingRefusal, presentedOfNative, readNativeRequest } from '../host/native-door';
import { CallDeadlines } from '../src/clock/call-deadlines';

export interface NativeRouteDeps<C> extends ExchangeDeps {
  /** The REST routes' own credential check (key audit, key rate limit, CSRF, sliding session expiry). */
  authenticate: Authenticate<C>;
  addressOf: (peer: string, forwardedFor: string | undefined) => string;
}

export type NativeHandler<R, C> = (input: { params: ParamsOf<R>; body: BodyOf<R>; caller: C; log: Logger }) => Promise<unknown>;

/** How a route's body is read, when not as the lobby commands' (JSON only, up to the 1 MB guard). */
export interface NativeBodyRules {
  /** Declared lengths over this are 413 before a byte is read. */
  maxBytes?: number;
  /** Also JSON sent as text/plain (rest/middleware/json-body.ts). */
  textPlainJson?: boolean;
}

const UWS_METHOD = { get: 'get', post: 'post', put: 'put', patch: 'patch', delete: 'del' } as const;

/**
 * Binds one contract row on a native uWS route, for the hot commands: framing, then the one
 * exchange (src/door/exchange.ts) the express door runs too, with the JSON body read here while
 * the credential step runs. What it skips is the express pipeline itself (request and response
 * emulation, a walk over every router's layers), which cost more server time than the lobby
 * command behind it. The route stays bound in express too, which serves the spellings uWS does not
 * match (a trailing slash, another letter case).
 */
export function bindNativeRoute<R extends RouteContract, C>(
  app: UwsApp,
  route: R,
  deps: NativeRouteDeps<C>,
  handler: NativeHandler<R, C>,
  bodyRules: NativeBodyRules = {},
): void {
  if (route.query || route.publicCache || route.method === 'get') throw new Error(`${route.operationId}: native routes bind bodied commands only`);
  const method = route.method.toUpperCase();
  const pathParameters = pathParameterReader(route.path);
  deps.bindings?.bound(route, 'native');
  const bodyDeadlines = new CallDeadlines(READ_BODY_MAX_MS, () => new HttpError(408, 'request body timed out', { Connection: 'close' }));
  app[UWS_METHOD[route.method]](route.path, (res, req) => {
    // The headers are read once: framing is decided on the ones the exchange reads.
    const request = readNativeRequest(req, res, method);
    const refusal = nativeFramingRefusal(request, { limit: bodyRules.maxBytes });
    if (refusal) return sendRefusal(res, req, refusal, deps, route.path);
    const door = new NativeResponse(res, request);
    const rawParams = pathParameters(req);
    const body = readBody(res, door, bodyDeadlines);
    body.catch(() => undefined);
    void runExchange(
      deps,
      route,
      deps.authenticate,
      {
        door: 'http',
        presented: presentedOfNative(request, deps.addressOf),
        input: async () => ({ params: decodeParameters(rawParams), query: {}, body: parseJsonBody(method, request.headers['content-type'], await body, bodyRules.textPlainJson) }),
      },
      handler,
      door,
    );
  });
}

/** The whole body (at most 1 MB: framing refused more), or 408 when it stalls. */
function readBody(res: HttpResponse, door: NativeResponse, deadlines: CallDeadlines): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const wait = deadlines.start(reject);
    res.onData((arrayBuffer, isLast) => {
      door.received += arrayBuffer.byteLength;
      const kept = arrayBuffer.byteLength > 0 && !door.done;
      if (!isLast) {
        deadlines.renew(wait);
        // uWS reuses the buffer after this callback returns: copy it.
        if (kept) chunks.push(Buffer.from(new Uint8Array(arrayBuffer)));
        return;
      }
      door.bodyComplete = true;
      deadlines.end(wait);
      // A body in one piece (a lobby command's always is) is decoded straight from uWS's buffer, before it is reused.
      if (chunks.length === 0) resolve(kept ? Buffer.from(arrayBuffer).toString('utf8') : '');
      else {
        if (kept) chunks.push(Buffer.from(new Uint8Array(arrayBuffer)));
        resolve(Buffer.concat(chunks).toString('utf8'));
      }
    });
  });
}

/** Percent-decoded as express decodes them; a malformed escape names no resource (404, as express answers it). */
function decodeParameters(raw: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      throw new HttpError(404, 'not found');
    }
  }
  return decoded;
}
