import type { LobbyDetail, LobbySummary } from '../schema/lobby';
import type { LobbyCommandName } from '../schema/routes/lobby-routes';
import type { Authenticate } from '../src/door/exchange';
import type { Caller } from '../src/identity/caller';

/**
 * What the socket layer needs from the rest of the server, as narrow ports: the composition root
 * hands in the lobby engine, the one command table shared with REST, the credential check and
 * presence. Nothing here knows about express or HTTP routes.
 */
export interface LobbyReads {
  /** The full snapshot, or null for an unknown code. */
  detail(code: string): Promise<LobbyDetail | null>;
  summaries(): Promise<LobbySummary[]>;
}

/**
 * Runs a lobby command as its REST route's handler does, on a code and body that route's
 * contract parsed; answers the success body; throws what the REST error mapping maps.
 */
export type LobbyCommandRunner = (code: string, name: LobbyCommandName, body: unknown, caller: Caller) => Promise<unknown>;

/**
 * The REST credential check itself (identity's `authenticate`), run by the one exchange for each
 * socket command on what the socket presented: the same decision, the same rate limit and the
 * same key audit row (written with the status the ack carries) as the route's.
 */
export type RouteAuthenticator = Authenticate<Caller>;

/** The REST error mapping: a client status and message, or null for an unexpected error (500). */
export type ErrorStatus = (error: unknown) => { status: number; message: string; headers?: Record<string, string> } | null;

export type SocketCredentialResult = { ok: true; caller: Caller } | { ok: false; status: number; error: string; retryAfterS?: number };

/** What a socket presented, read from its handshake; the address parts are for the key audit. */
export interface PresentedSocketCredentials {
  cookieHeader: string | undefined;
  token: string | undefined;
  /** The raw transport peer (uWS text form). */
  peerAddress: string;
  forwardedFor: string | undefined;
}

/** The handshake's check: session cookie for browsers, `auth.token` (a premium or admin key) for bots, neither: anonymous. */
export type SocketCredentialResolver = (input: PresentedSocketCredentials) => Promise<SocketCredentialResult>;

export interface PresenceTouch {
  touch(userId: number): Promise<void> | undefined;
}
