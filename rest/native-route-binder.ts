import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { BodyOf, ParamsOf, RouteContract } from '../schema/route-contract';
import { pathParameterReader, type UwsApp } from '../realtime/uws-host';
import type { CredentialRequest, CredentialResponse } from '../src/identity/authenticator';
import { SHUTTING_DOWN, type InFlight } from '../src/server-lifecycle';
import { framingRefusal, READ_BODY_MAX_MS, sendRefusal } from './body-size-guard';
import { HttpError } from './http-error';
import { errorAnswer } from './middleware/error-handler';
import { parseJsonBody } from './middleware/json-body';
import { statusLine } from './status-line';
import { parseRouteInput } from './validation';

export interface NativeRouteDeps<C> {
  /** The REST routes' own credential check (key audit, key rate limit, CSRF, sliding session expiry). */
  authenticate: (req: CredentialRequest, res: CredentialResponse, route: RouteContract) => Promise<C>;
  inFlight: InFlight;
  logger: Logger;
}

export type NativeHandler<R, C> = (input: { params: ParamsOf<R>; body: BodyOf<R>; caller: C }) => Promise<unknown>;

/** How a route's body is read, when not as the lobby commands' (JSON only, up to the 1 MB guard). */
export interface NativeBodyRules {
  /** Declared lengths over this are 413 before a byte is read. */
  maxBytes?: number;
  /** Also JSON sent as text/plain (rest/middleware/json-body.ts). */
  textPlainJson?: boolean;
}

const UWS_METHOD = { get: 'get', post: 'post', put: 'put', patch: 'patch', delete: 'del' } as const;

/**
 * Binds one contract row on a native uWS route, for the hot commands: the same steps as the
 * express binder (rest/route-binder.ts) in the same order, with the same parts: framing checks,
 * the JSON body read (rest/middleware/json-body.ts), `authenticate`, the path and body schemas,
 * the handler, the contract's success status, and the one error answer. What it skips is the
 * express pipeline itself (request and response emulation, a walk over every router's layers),
 * which cost more server time than the lobby command behind it. The route stays bound in express
 * too, which serves the spellings uWS does not match (a trailing slash, another letter case).
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
  app[UWS_METHOD[route.method]](route.path, (res, req) => {
    const refusal = framingRefusal(req, bodyRules.maxBytes);
    if (refusal) return sendRefusal(res, refusal);
    const exchange = new NativeExchange(res, readRequest(req, res, method));
    const leave = deps.inFlight.enter({ refuse: () => exchange.answer(SHUTTING_DOWN.status, SHUTTING_DOWN.body, SHUTTING_DOWN.headers) });
    if (!leave) return exchange.answer(SHUTTING_DOWN.status, SHUTTING_DOWN.body, SHUTTING_DOWN.headers);
    exchange.once('finish', leave);
    const rawParams = pathParameters(req);

    const chunks: Buffer[] = [];
    const stalled = setTimeout(() => exchange.answer(408, { error: 'request body timed out' }, { Connection: 'close' }), READ_BODY_MAX_MS);
    res.onData((arrayBuffer, isLast) => {
      if (exchange.done) return;
      stalled.refresh();
      // uWS reuses the buffer after this callback returns: copy it.
      if (arrayBuffer.byteLength > 0) chunks.push(Buffer.from(new Uint8Array(arrayBuffer)));
      if (!isLast) return;
      clearTimeout(stalled);
      void run(Buffer.concat(chunks).toString('utf8'));
    });

    const run = async (raw: string) => {
      const request = exchange.request;
      try {
        const json = parseJsonBody(method, request.headers['content-type'], raw, bodyRules.textPlainJson);
        const caller = await deps.authenticate(request, exchange, route);
        const { params, body } = parseRouteInput(route, { params: decodeParameters(rawParams), query: {}, body: json });
        const result = await handler({ params, body, caller });
        exchange.answer(route.success.status, route.success.status === 204 ? undefined : result);
      } catch (error) {
        const failed = errorAnswer(error, deps.logger, request);
        exchange.answer(failed.status, failed.body, failed.headers);
      }
    };
  });
}

/**
 * One native request and its answer, shaped as the credential check expects a response to be:
 * a status, headers, and 'finish' once answered (the key audit records the final status).
 */
class NativeExchange extends EventEmitter implements CredentialResponse {
  statusCode = 200;
  done = false;
  #aborted = false;
  readonly #headers = new Map<string, [string, string]>();

  constructor(
    private readonly res: HttpResponse,
    readonly request: CredentialRequest & { headers: Record<string, string> },
  ) {
    super();
    res.onAborted(() => (this.#aborted = true));
  }

  setHeader(name: string, value: string): void {
    this.#headers.set(name.toLowerCase(), [name, value]);
  }

  /** Answers once; a later answer (a handler finishing after a shutdown refused it) is dropped. */
  answer(status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (this.done) return;
    this.done = true;
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
    if (!this.#aborted) {
      const text = body === undefined ? '' : JSON.stringify(body);
      const close = this.#headers.get('connection')?.[1] === 'close';
      this.#headers.delete('connection');
      this.res.cork(() => {
        this.res.writeStatus(statusLine(status));
        if (body !== undefined) this.res.writeHeader('Content-Type', 'application/json; charset=utf-8');
        for (const [name, value] of this.#headers.values()) this.res.writeHeader(name, value);
        // `end(body, true)` writes the one `Connection: close` and closes after the answer.
        this.res.end(text, close);
      });
    }
    this.emit('finish');
  }
}

/** Everything the handler needs of the request, read now: uWS's request object is only valid during the route callback. */
function readRequest(req: HttpRequest, res: HttpResponse, method: string): CredentialRequest & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  req.forEach((name, value) => {
    const seen = headers[name];
    headers[name] = seen === undefined ? value : `${seen}${name === 'cookie' ? '; ' : ', '}${value}`;
  });
  const path = req.getUrl();
  const query = req.getQuery();
  return { headers, method, url: query ? `${path}?${query}` : path, path, ip: Buffer.from(res.getRemoteAddressAsText()).toString() };
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
