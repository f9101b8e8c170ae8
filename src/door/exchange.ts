import type { Logger } from 'pino';
import type { BodyOf, ParamsOf, QueryOf, RouteContract } from '../../schema/route-contract';
import { notifyObservers, type RequestObserver } from '../observability/request-observer';
import { SHUTTING_DOWN, type InFlight } from '../server-lifecycle';
import { AnswerTrail } from './answer-trail';
import type { DoorBindings } from './door-bindings';
import { errorAnswer } from './error-answer';
import { refuseKeyInUrl } from './key-in-url';
import type { PresentedRequest } from './presented-request';
import type { RequestScope, RequestScopes } from './request-scope';
import { parseRouteInput } from './route-input';

/** An answer as every door writes it: a JSON value, or bytes already serialized (the public reads' cache). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  bytes?: Buffer;
}

/**
 * The Content-Type a door writes for an answer with a body: its own (a page, a script), else JSON;
 * null for an answer without a body.
 */
export function contentTypeOf(answer: Answer): string | null {
  if (!answer.bytes && answer.body === undefined) return null;
  const own = Object.keys(answer.headers).find((name) => name.toLowerCase() === 'content-type');
  return own === undefined ? 'application/json; charset=utf-8' : answer.headers[own];
}

/** A handler's answer already serialized, with its own status (a cached public read). */
export class PreparedAnswer {
  constructor(
    readonly status: number,
    readonly bytes: Buffer,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** The credential step of a route that takes no credential at all (the site's pages, an unmatched path). */
export const NO_CREDENTIAL: Authenticate<null> = () => null;

/** A handler that wrote its own answer through its door (express redirects) returns this instead of a body. */
export const RESPONDED = Symbol('responded');

/** How a door writes the exchange's answer; it is called at most once per exchange. */
export interface DoorResponse {
  send(answer: Answer): void;
  /** The status a handler that returned RESPONDED wrote through the door itself. */
  writtenStatus?(): number;
}

/**
 * The credential step: the presented credentials and the route's rule in, a caller out (or a
 * thrown refusal); headers and the final status reach the answer only through the trail.
 */
export type Authenticate<C> = (request: PresentedRequest, route: RouteContract, trail: AnswerTrail) => C | Promise<C>;

export interface HandlerInput<R, C> {
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  caller: C;
  /** The logger of this exchange: its lines carry the request id the answer and the access log carry. */
  log: Logger;
}

export type ExchangeHandler<R, C> = (input: HandlerInput<R, C> & { trail: AnswerTrail }) => unknown;

export interface ExchangeDeps {
  inFlight: InFlight;
  logger: Logger;
  observers: readonly RequestObserver[];
  /** Where the binders record which door serves which route (absent in benches and unit fakes). */
  bindings?: DoorBindings;
  /** Which request runs now, for a statement observer that asks (absent: no scope is kept). */
  scopes?: RequestScopes;
}

export interface RawInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

export interface ExchangeRequest {
  door: 'http' | 'socket';
  presented: PresentedRequest;
  /**
   * The raw path, query and body, read only once the credential step passed (it may throw 400/415);
   * a door still receiving the body answers a promise of it.
   */
  input: () => RawInput | Promise<RawInput>;
}

const PUBLIC_CACHE = 'public, max-age=30';

/**
 * A handler's input, its logger made on first use. A class, the getter on its prototype: see
 * HeaderPresented (presented-request.ts) for what a getter in an object literal costs.
 */
class ExchangeInput<R, C> implements HandlerInput<R, C> {
  constructor(
    readonly params: ParamsOf<R>,
    readonly query: QueryOf<R>,
    readonly body: BodyOf<R>,
    readonly caller: C,
    readonly trail: AnswerTrail,
    private readonly logOf: () => Logger,
  ) {}

  get log(): Logger {
    return this.logOf();
  }
}

/** Runs `next` on a value now, or once its promise settles: a fresh cached read stays synchronous. */
function then<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * The one request pipeline, whichever door a request came through: in-flight (a shutdown refuses
 * it) -> credentials (a key in the URL first, then the route's own step) -> parse by the route's contract -> handler -> the contract's success
 * status, or the one error mapping; then the request id header, the trail's headers, and every
 * observer (access log, metrics). Framing is checked by the door before it calls this, since it
 * reads the transport's own request. Answers once, whatever races (a shutdown, a late handler).
 * Everything it runs runs in the request's scope when the deps carry one (src/door/request-scope.ts).
 */
export function runExchange<R extends RouteContract, C>(
  deps: ExchangeDeps,
  route: R,
  authenticate: Authenticate<C>,
  request: ExchangeRequest,
  handler: ExchangeHandler<R, C>,
  door: DoorResponse,
): void | Promise<void> {
  return inScope(deps, request.presented.requestId, 'credentials', () => exchange(deps, route, authenticate, request, handler, door));
}

function inScope<T>(deps: ExchangeDeps, requestId: string, step: RequestScope['step'], work: () => T): T {
  return deps.scopes ? deps.scopes.run(requestId, step, work) : work();
}

function exchange<R extends RouteContract, C>(...[deps, route, authenticate, request, handler, door]: Parameters<typeof runExchange<R, C>>): void | Promise<void> {
  const started = performance.now();
  const { presented } = request;
  const trail = new AnswerTrail();
  let log: Logger | undefined;
  // Made on first use: most exchanges log nothing but their access line.
  const logOf = () => (log ??= deps.logger.child({ requestId: presented.requestId }));
  let settled = false;
  let leave: (() => void) | null = null;

  const settle = (status: number) => {
    settled = true;
    leave?.();
    trail.answered(status);
    const record = { door: request.door, method: presented.method, route: route.path, status, durationMs: performance.now() - started, requestId: presented.requestId };
    notifyObservers(deps.observers, record, deps.logger);
  };
  const respond = (answer: Answer) => {
    if (settled) return;
    door.send({ ...answer, headers: { ...trail.headers, ...answer.headers, 'X-Request-Id': presented.requestId } });
    settle(answer.status);
  };
  const fail = (error: unknown) => {
    if (settled) return;
    const failed = errorAnswer(error, logOf(), presented);
    respond({ status: failed.status, headers: failed.headers, body: failed.body });
  };

  leave = deps.inFlight.enter({ refuse: () => respond({ ...SHUTTING_DOWN, headers: { ...SHUTTING_DOWN.headers } }) });
  if (!leave) return respond({ ...SHUTTING_DOWN, headers: { ...SHUTTING_DOWN.headers } });

  const finish = (result: unknown) => {
    if (result === RESPONDED) {
      if (!settled) settle(door.writtenStatus?.() ?? route.success.status);
      return;
    }
    if (result instanceof PreparedAnswer) return respond({ status: result.status, headers: result.headers, bytes: result.bytes });
    const headers: Record<string, string> = route.publicCache ? { 'Cache-Control': PUBLIC_CACHE } : {};
    respond({ status: route.success.status, headers, body: route.success.status === 204 ? undefined : result });
  };

  try {
    refuseKeyInUrl(presented.target);
    const done = then(authenticate(presented, route, trail), (caller) => {
      if (settled) return;
      return then(request.input(), (raw) => {
        if (settled) return;
        const { params, query, body } = parseRouteInput(route, raw);
        const input = new ExchangeInput(params, query, body, caller, trail, logOf);
        return then(inScope(deps, presented.requestId, 'handler', () => handler(input)), finish);
      });
    });
    if (done instanceof Promise) return done.catch(fail);
  } catch (error) {
    fail(error);
  }
}
