import type { Logger } from 'pino';
import type { Socket } from 'socket.io';
import type { HandshakeRefusal, SocketData } from '../schema/realtime';
import type { Caller } from '../src/identity/caller';
import { KEY_IN_URL_REFUSAL, keyInUrl } from '../src/door/key-in-url';
import { isCrossSiteFetch, originOfUrl, requestSite } from '../src/identity/request-site';
import type { ErrorStatus, PresentedSocketCredentials, SocketCredentialResolver } from './realtime-ports';

type Next = (error?: Error & { data?: HandshakeRefusal }) => void;

/**
 * The connection middleware: a session cookie (browsers), `auth.token` with a premium or admin
 * key (bots), or nothing (anonymous, read-only). A credential that is presented but invalid
 * refuses the connection with the REST status in `connect_error`'s `data`, instead of silently
 * downgrading a bot to anonymous.
 */
export function authenticateHandshake(resolve: SocketCredentialResolver, read: CredentialReader, logger: Logger, errorStatus?: ErrorStatus) {
  return async (socket: Socket<never, never, never, SocketData>, next: Next): Promise<void> => {
    try {
      // Rule 1 at this door too: a key in the handshake's URL is no credential (401).
      if (keyInUrl(handshakeTarget(socket.handshake))) return next(refusal(401, KEY_IN_URL_REFUSAL));
      const result = await resolve(read(socket));
      if (!result.ok) return next(refusal(result.status, result.error, result.retryAfterS));
      socket.data = socketDataOf(result.caller);
      next();
    } catch (error) {
      // A store that cannot answer now refuses with its status (503): the client retries.
      const mapped = errorStatus?.(error);
      if (mapped) return next(refusal(mapped.status, mapped.message, retryAfterOf(mapped.headers)));
      logger.error({ err: error }, 'socket handshake failed');
      next(refusal(500, 'internal error'));
    }
  };
}

/** The handshake's URL with its query (under uWS socket.io keeps the query apart from `url`). */
function handshakeTarget(handshake: { url: string; query: Record<string, unknown> }): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(handshake.query)) for (const each of [value].flat()) query.append(name, String(each));
  return `${handshake.url.split('?')[0]}?${handshake.url.split('?')[1] ?? ''}&${query.toString()}`;
}

export type CredentialReader = (socket: Pick<Socket, 'handshake'>) => PresentedSocketCredentials;

/**
 * What a socket presented, read from its handshake; read again for every command, so a logout or
 * a revoked key takes effect on open sockets. The cookie only counts when the page that opened
 * the socket is ours (no Origin: a bot, or same-origin polling; else the Origin's host is the
 * Host asked for, or the public URL's; and its browser does not say `Sec-Fetch-Site: cross-site`): another site's page could otherwise open a socket that
 * rides on the visitor's session (cross-site WebSocket hijacking; SameSite=Lax covers only
 * browsers that honour it, and not sibling subdomains).
 */
export function credentialReader(publicUrl: string | undefined): CredentialReader {
  const publicOrigin = publicUrl ? originOfUrl(publicUrl) : null;
  return (socket) => {
    const { auth, headers, address } = socket.handshake;
    const token = (auth as Record<string, unknown> | undefined)?.token;
    const forwardedFor = headers['x-forwarded-for'];
    const fetchSite = headers['sec-fetch-site'];
    // Fetch Metadata first, as REST's CSRF rule reads it: a handshake a browser says is cross-site is not our page's.
    const crossSite = isCrossSiteFetch(Array.isArray(fetchSite) ? fetchSite[0] : fetchSite);
    const fromOurPage = !crossSite && (headers.origin === undefined || requestSite({ origin: headers.origin, host: headers.host }, publicOrigin) === 'ours');
    return {
      cookieHeader: fromOurPage ? headers.cookie : undefined,
      token: typeof token === 'string' && token !== '' ? token : undefined,
      peerAddress: address,
      forwardedFor: Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor,
    };
  };
}

export function socketDataOf(caller: Caller): SocketData {
  switch (caller.kind) {
    case 'session':
      return { userId: caller.user.id, credential: 'session' };
    case 'key':
      return { userId: caller.user.id, credential: caller.keyKind };
    default:
      return { userId: null, credential: 'anonymous' };
  }
}

/** The seconds of a refusal's Retry-After header (REST's), as the socket's `retry_after`. */
function retryAfterOf(headers: Record<string, string> | undefined): number | undefined {
  const seconds = Number(headers?.['Retry-After'] ?? headers?.['retry-after']);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

function refusal(status: number, error: string, retryAfterS?: number): Error & { data: HandshakeRefusal } {
  return Object.assign(new Error(error), { data: retryAfterS === undefined ? { status, error } : { status, error, retry_after: retryAfterS } });
}
