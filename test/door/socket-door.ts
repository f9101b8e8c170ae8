import { io } from 'socket.io-client';
import type { HandshakeRefusal } from '../../schema/realtime';
import { lobbyCommandContracts } from '../../schema/routes/lobby-routes';
import type { LeagueClient } from '../realtime/support/socket-client';
import type { DoorCase, DoorRequest, Outcome } from './door-cases';

/** Longer than any store timeout plus margin: a command that is never acknowledged is reported, not waited on forever. */
const ACK_WAIT_MS = 10_000;

/**
 * The socket door as a client reaches it: a request's credentials become its handshake (the
 * cookie, Origin and Fetch Metadata headers, a bearer key as `auth.token`, the URL's query on the
 * handshake's URL) and its body becomes one `lobby:command {code, type, ...body}`. A connected
 * socket is kept per handshake, so one opened before a fault (a store stopped, a shutdown) serves
 * the command during it, as a player's open socket would.
 */
export class SocketDoor {
  /** Per handshake, the socket being connected or connected (one, however many commands ask for it at once). */
  readonly #clients = new Map<string, Promise<LeagueClient | Outcome>>();
  readonly #sockets = new Set<LeagueClient>();

  constructor(private readonly url: string) {}

  /** Connects the socket this request's handshake asks for (once), or answers the handshake's refusal. */
  open(request: DoorRequest): Promise<LeagueClient | Outcome> {
    const handshake = handshakeOf(request);
    const key = JSON.stringify(handshake);
    // Chained, so that commands asking at once share one socket; a refusal is asked again.
    const next = (this.#clients.get(key) ?? Promise.resolve(undefined)).then((kept) => (kept !== undefined && 'emit' in kept && kept.connected ? kept : this.#connect(handshake)));
    this.#clients.set(key, next);
    return next;
  }

  #connect(handshake: ReturnType<typeof handshakeOf>): Promise<LeagueClient | Outcome> {
    const started = performance.now();
    const socket: LeagueClient = io(this.url, { transports: ['websocket'], forceNew: true, reconnection: false, ...handshake });
    this.#sockets.add(socket);
    return new Promise((resolve) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', (error: Error & { data?: HandshakeRefusal }) => {
        socket.close();
        const data = error.data ?? { status: 0, error: error.message };
        resolve({ status: data.status, headers: new Headers(), body: { error: data.error }, ms: performance.now() - started });
      });
    });
  }

  /**
   * The command's acknowledgement as an outcome: `{ok, status, ...body}` is the body, `{error,
   * status}` the refusal `{error}`, and its `retry_after_s` what REST sends as Retry-After.
   */
  async send(c: DoorCase, request: DoorRequest): Promise<Outcome> {
    const client = await this.open(request);
    if (!('emit' in client)) return client;
    const started = performance.now();
    const ack = await (client.timeout(ACK_WAIT_MS) as unknown as { emitWithAck(event: string, payload: unknown): Promise<Record<string, unknown>> })
      .emitWithAck('lobby:command', payloadOf(c, request))
      .catch((error: Error): Record<string, unknown> => ({ status: 0, error: `no acknowledgement: ${error.message}` }));
    const { ok, status, retry_after_s: retryAfter, ...body } = ack;
    const headers = new Headers(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) });
    return { status: Number(status), headers, body: ok === true ? body : ack.error === undefined ? ack : body, ms: performance.now() - started };
  }

  close(): void {
    for (const socket of this.#sockets) socket.close();
    this.#sockets.clear();
    this.#clients.clear();
  }
}

function handshakeOf(request: DoorRequest) {
  const { cookie, origin, authorization, 'sec-fetch-site': fetchSite } = request.headers ?? {};
  const extraHeaders: Record<string, string> = {};
  if (cookie) extraHeaders.cookie = cookie;
  if (origin) extraHeaders.origin = origin;
  if (fetchSite) extraHeaders['sec-fetch-site'] = fetchSite;
  const token = authorization?.replace(/^Bearer /, '');
  const query = Object.fromEntries(new URL(request.target, 'http://door').searchParams);
  return { extraHeaders, auth: token ? { token } : {}, query };
}

/** `{code, type, ...body}`; a body that is not JSON is sent as it is: a payload that is not an object, the socket's malformed body. */
function payloadOf(c: DoorCase, request: DoorRequest): unknown {
  const type = Object.entries(lobbyCommandContracts).find(([, route]) => route === c.route)?.[0];
  const code = decodeURIComponent(c.path.split('/')[3] ?? '');
  if (request.body === undefined) return { code, type };
  try {
    const body: unknown = JSON.parse(request.body.text);
    return typeof body === 'object' && body !== null ? { ...body, code, type } : request.body.text;
  } catch {
    return request.body.text;
  }
}
