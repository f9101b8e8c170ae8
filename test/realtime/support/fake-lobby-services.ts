import type { LobbyDetail } from '../../../schema/lobby';
import type { LobbyServices } from '../../../realtime/socket-server';
import type { SocketCredentialResult } from '../../../realtime/realtime-ports';
import type { UserRecord } from '../../../src/db/user-record';
import { HttpError } from '../../../src/door/http-refusal';
import { InFlight } from '../../../src/server-lifecycle';
import { captureLogs } from '../../support/log-capture';

/** A lobby as the engine would describe it, for tests of the socket layer alone. */
export function sampleLobby(code: string, version = 1): LobbyDetail {
  return {
    code,
    name: `lobby ${code}`,
    format: 'ultiduo',
    phase: 'gathering',
    host_id: 1,
    captains: { red: null, blu: null },
    teams: {
      red: [{ index: 0, class: 'soldier', user: null, ready: false, ready_until: null }],
      blu: [{ index: 0, class: 'soldier', user: null, ready: false, ready_until: null }],
    },
    pool: [],
    map_pool: ['koth_product'],
    votes: { koth_product: 0 },
    turn: null,
    ready_check_deadline: null,
    region: null,
    reservation_id: null,
    match_id: null,
    score_red: null,
    score_blu: null,
    started_at: null,
    ended_at: null,
    created_at: new Date(0).toISOString(),
    version,
  };
}

/** A refusal the exchange's one error mapping answers with its status. */
export class CommandRefused extends HttpError {}

export interface FakeServices extends LobbyServices {
  lobbiesByCode: Map<string, LobbyDetail>;
  commands: Array<{ code: string; type: string; body: unknown; userId: number }>;
  touched: number[];
  /** Every credential check of a command: the request it was given and the status its response finished with. */
  exchanges: Array<{ method: string; path: string; authorization?: string; finished: number | null }>;
}

/** Chat messages that make the fake engine refuse with a status. */
export const REFUSALS: Record<string, number> = { 'refuse-forbidden': 403, 'refuse-not-found': 404, 'refuse-conflict': 409 };

const user = (id: number): UserRecord => ({ id, username: `user${id}` }) as unknown as UserRecord;

/**
 * Credentials: cookie `league_session=user<N>` is user N's session; token `key<N>` is user N's
 * premium key (the handshake admits it; a command, on a session-only route as every lobby command
 * is, refuses it 401 as REST does); token `bad` is refused 401, `limited` 429 with a Retry-After of 7 s,
 * and `unavailable` throws what a store that cannot answer throws (503, Retry-After 1 s). A chat message named in REFUSALS
 * throws its status; the message `crash` throws an unexpected error.
 */
export function fakeLobbyServices(): FakeServices {
  const lobbiesByCode = new Map<string, LobbyDetail>();
  const commands: FakeServices['commands'] = [];
  const touched: number[] = [];
  const exchanges: FakeServices['exchanges'] = [];
  return {
    lobbiesByCode,
    commands,
    touched,
    exchanges,
    lobbies: {
      detail: async (code) => lobbiesByCode.get(code) ?? null,
      summaries: async () => [],
    },
    runCommand: async (code, type, body, caller) => {
      const message = (body as { message?: string }).message ?? '';
      const refused = REFUSALS[message];
      if (refused) throw new CommandRefused(refused, `refused ${refused}`);
      if (message === 'crash') throw new Error('boom');
      commands.push({ code, type, body, userId: caller.user!.id });
      return { ok: true, echoed: body };
    },
    exchange: { inFlight: new InFlight(), logger: captureLogs().logger, observers: [] },
    addressOf: (peer) => peer,
    authenticate: async (req, route, trail) => {
      const authorization = req.authorization;
      const exchange = { method: req.method, path: req.path, authorization, finished: null as number | null };
      exchanges.push(exchange);
      trail.onAnswered((status) => (exchange.finished = status));
      const session = /league_session=user(\d+)/.exec(String(req.cookie ?? ''));
      if (route.auth.includes('session') && session) return { kind: 'session', user: user(Number(session[1])), sessionId: 's' };
      throw new CommandRefused(401, 'login required');
    },
    errorStatus: (error) => (error instanceof CommandRefused ? { status: error.status, message: error.message, headers: error.headers } : null),
    resolveCredential: async ({ cookieHeader, token }): Promise<SocketCredentialResult> => {
      if (token === 'bad') return { ok: false, status: 401, error: 'invalid API key' };
      if (token === 'limited') return { ok: false, status: 429, error: 'API key rate limit exceeded', retryAfterS: 7 };
      if (token === 'unavailable') throw new CommandRefused(503, 'store unavailable', { 'Retry-After': '1' });
      const key = token && /^key(\d+)$/.exec(token);
      if (key) return { ok: true, caller: { kind: 'key', keyKind: 'premium', keyId: 1, user: user(Number(key[1])) } };
      const session = cookieHeader && /league_session=user(\d+)/.exec(cookieHeader);
      if (session) return { ok: true, caller: { kind: 'session', user: user(Number(session[1])), sessionId: 's' } };
      return { ok: true, caller: { kind: 'anonymous', user: null } };
    },
    presence: {
      touch: (userId) => {
        touched.push(userId);
        return undefined;
      },
    },
  };
}
