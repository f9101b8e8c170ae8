import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { contentTypeOf, type Answer, type DoorResponse } from '../src/door/exchange';
import { presentedFromHeaders, type PresentedRequest } from '../src/door/presented-request';
import { endAnswer } from './uws-host';
import { statusLine } from './status-line';
import { declaredLengthOf, framingRefusalOf, type FramingRules, type Refusal } from './request-framing';

/**
 * How much of a refused request's body is still read (and thrown away) after the answer, so the
 * client, still sending, reads the answer instead of a connection reset (RFC 9112 section 9.6,
 * nginx's lingering close). A body declared longer than this, or without a declared length, is
 * not waited for: the connection is closed at once.
 */
export const LINGER_MAX_BYTES = 128 * 1024 * 1024;

/** Everything the exchange needs of a native request, read now: uWS's request object is only valid during the route callback. */
export interface NativeRequest {
  headers: Record<string, string>;
  method: string;
  path: string;
  target: string;
  peer: string;
  /** The declared body length: 0 without a body, Infinity for a chunked one. */
  declaredLength: number;
}

/** A class, its lazy peer a getter on the prototype: see HeaderPresented (src/door/presented-request.ts) for why. */
class UwsRequest implements NativeRequest {
  #peer: string | undefined;

  constructor(
    private readonly res: HttpResponse,
    readonly headers: Record<string, string>,
    readonly method: string,
    readonly path: string,
    readonly target: string,
    readonly declaredLength: number,
  ) {}

  // Read on first use: uWS asks the kernel (getpeername) on every call, about 2% of a lobby
  // command's server time, and most requests never need it (a session's lobby command).
  get peer(): string {
    return (this.#peer ??= remoteAddress(this.res));
  }
}

export function readNativeRequest(req: HttpRequest, res: HttpResponse, method: string): NativeRequest {
  const headers: Record<string, string> = {};
  // Repeated headers are joined as Node joins them (cookies with '; '), never "the last one wins".
  req.forEach((name, value) => {
    const seen = headers[name];
    headers[name] = seen === undefined ? value : `${seen}${name === 'cookie' ? '; ' : ', '}${value}`;
  });
  const path = req.getUrl();
  const query = req.getQuery();
  const declaredLength = declaredLengthOf(headers['content-length'], headers['transfer-encoding']);
  return new UwsRequest(res, headers, method, path, query ? `${path}?${query}` : path, declaredLength);
}

/** The framing refusal (see request-framing.ts) of a request read whole: from the headers already collected. */
export function nativeFramingRefusal(request: NativeRequest, rules?: FramingRules): Refusal | null {
  const { headers, target } = request;
  return framingRefusalOf({ contentLength: headers['content-length'], transferEncoding: headers['transfer-encoding'], targetLength: target.length }, rules);
}

/** The peer's address as uWS gives it; 'unknown' once the response may no longer be touched (the client went away). */
function remoteAddress(res: HttpResponse): string {
  try {
    return Buffer.from(res.getRemoteAddressAsText()).toString();
  } catch {
    return 'unknown';
  }
}

/** The presented credentials of a native request, with the client address the composition root derives (on first use, see `peer`). */
export function presentedOfNative(request: NativeRequest, addressOf: (peer: string, forwardedFor: string | undefined) => string): PresentedRequest {
  return presentedFromHeaders(request.headers, request, () => addressOf(request.peer, request.headers['x-forwarded-for']));
}

/**
 * Ends a native answer and decides how the connection goes on. A request whose body was read
 * whole keeps its connection, unless the answer closes it (`close`: a shutdown, a stalled body),
 * which happens at once. A refusal sent while the body is still arriving is answered with
 * `Connection: close` and the connection stays open while uWS reads and discards the rest of the
 * declared body (bounded by LINGER_MAX_BYTES; uWS's idle timeout bounds the time a stalled sender
 * gets): closing now would reset the connection and destroy the answer before a client that is
 * still sending reads it. A body of unknown length is not waited for.
 */
export function endNative(res: HttpResponse, text: string | Buffer, options: { close: boolean; unreadBytes: number }): void {
  if (!options.close && options.unreadBytes > 0 && options.unreadBytes <= LINGER_MAX_BYTES) {
    res.writeHeader('Connection', 'close');
    res.end(text, false);
    return;
  }
  // `end(body, true)` writes the one `Connection: close`.
  res.end(text, options.close || options.unreadBytes !== 0);
}

/**
 * A native uWS response as the exchange's door: it answers once, not after the client went away,
 * and knows how much of the request's body is still unread when it answers.
 */
export class NativeResponse implements DoorResponse {
  done = false;
  aborted = false;
  /** Body bytes received so far; the door's body reader counts them. */
  received = 0;
  bodyComplete: boolean;
  #paused = false;

  constructor(
    private readonly res: HttpResponse,
    private readonly request: NativeRequest,
    private readonly head = false,
  ) {
    this.bodyComplete = !(request.declaredLength > 0);
    res.onAborted(() => (this.aborted = true));
  }

  /** Stops reading the body (backpressure); `resume` goes on. Only a paused response may be resumed. */
  pause(): void {
    this.#paused = true;
    this.res.pause();
  }

  resume(): void {
    if (!this.#paused || this.done) return;
    this.#paused = false;
    this.res.resume();
  }

  send(answer: Answer): void {
    if (this.done) return;
    this.done = true;
    if (this.aborted) return;
    const text = answer.bytes ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    const unread = this.bodyComplete ? 0 : Number.isFinite(this.request.declaredLength) ? this.request.declaredLength - this.received : Number.POSITIVE_INFINITY;
    this.res.cork(() => this.#write(answer, text, unread));
  }

  #write(answer: Answer, text: string | Buffer, unread: number): void {
    // A paused response (the streamed upload) is resumed, or its answer could sit behind the paused socket.
    if (this.#paused) this.res.resume();
    this.res.writeStatus(statusLine(answer.status));
    const contentType = contentTypeOf(answer);
    if (contentType !== null) this.res.writeHeader('Content-Type', contentType);
    // Connection and Content-Type are uWS's to write (above, and by `end`): the others as given.
    let close = false;
    for (const name in answer.headers) {
      const value = answer.headers[name];
      const lower = name.toLowerCase();
      if (lower === 'connection') close ||= value === 'close';
      else if (lower !== 'content-type') this.res.writeHeader(name, value);
    }
    if (answer.status === 304) {
      // Not modified: no body, and no length (it would be the one a 200 carries).
      this.res.endWithoutBody(undefined, close);
      return;
    }
    if (this.head) {
      // uWS does not know HEAD: the length a GET would get, and no body (host/uws-host.ts endAnswer).
      if (close) this.res.writeHeader('Connection', 'close');
      endAnswer(this.res, text, true);
      return;
    }
    endNative(this.res, text, { close, unreadBytes: unread });
  }
}
