import type { Logger } from 'pino';
import type { BodyOf, ParamsOf, QueryOf, RouteContract } from '../../schema/route-contract';
import { notifyObservers, type RequestObserver } from '../observability/request-observer';
import { SHUTTING_DOWN, type InFlight } from '../server-lifecycle';
import { AnswerTrail } from './answer-trail';
import { errorAnswer } from './error-answer';
import type { PresentedRequest } from './presented-request';
import { parseRouteInput } from './route-input';

/** An answer as every door writes it: a JSON value, or bytes already serialized (the public reads' cache). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  bytes?: Buffer;
}

/** A handler's answer already serialized, with its own status (a cached public read). */
export class PreparedAnswer {
  constructor(
    readonly status: number,
    readonly bytes: Buffer,
    readonly headers: Record<string, string> = {},
  ) {}
}

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
}

export type ExchangeHandler<R, C> = (input: HandlerInput<R, C> & { trail: AnswerTrail }) => unknown;

export interface ExchangeDeps {
  inFlight: InFlight;
  logger: Logger;
  observers: readonly RequestObserver[];
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

/** Runs `next` on a value now, or once its promise settles: a fresh cached read stays synchronous. */
function then<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * The one request pipeline, whichever door a request came through: in-flight (a shutdown refuses
 * it) -> credentials -> parse by the route's contract -> handler -> the contract's success
 * status, or the one error mapping; then the request id header, the trail's headers, and every
 * observer (access log, metrics). Framing is checked by the door before it calls this, since it
 * reads the transport's own request. Answers once, whatever races (a shutdown, a late handler).
 */
export function runExchange<R extends RouteContract, C>(
  deps: ExchangeDeps,
  route: R,
  authenticate: Authenticate<C>,
  request: ExchangeRequest,
  handler: ExchangeHandler<R, C>,
  door: DoorResponse,
): void | Promise<void> {
  const started = performance.now();
  const { presented } = request;
  const trail = new AnswerTrail();
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
    const failed = errorAnswer(error, deps.logger.child({ requestId: presented.requestId }), presented);
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
    const done = then(authenticate(presented, route, trail), (caller) => {
      if (settled) return;
      return then(request.input(), (raw) => {
        if (settled) return;
        const { params, query, body } = parseRouteInput(route, raw);
        return then(handler({ params, query, body, caller, trail }), finish);
      });
    });
    if (done instanceof Promise) return done.catch(fail);
  } catch (error) {
    fail(error);
  }
}
