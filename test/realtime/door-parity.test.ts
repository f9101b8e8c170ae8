import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandAck } from '../../schema/realtime';
import { LOBBY_COMMAND_NAMES, lobbyCommandContracts, type LobbyCommandName } from '../../schema/routes/lobby-routes';
import { grantPremium } from '../api/identity/identity-fixtures';
import { startTestServerWithLogin, type LoggedIn, type TestServerWithLogin } from '../support/login';
import { createLobby, rest, type RestAnswer } from './support/rest-client';
import { closeAllClients, connect, request, type LeagueClient } from './support/socket-client';
import { freshUser } from './support/users';
import { poll } from '../support/poll';

/*
 * Every lobby command through both doors, with every kind of credential: REST and the socket's
 * `lobby:command` must answer the same status and body. Session callers act on two lobbies set up
 * alike (one per door), so a command that changes its lobby is compared on equal footing.
 */
const ADMIN = '76561198000009101';
let server: TestServerWithLogin;
let premiumKey: string;
let adminKey: string;

beforeAll(async () => {
  server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: ADMIN });
  const admin = await server.login(ADMIN);
  const issuedAdmin = await rest<{ raw_key: string }>(server.url, 'POST', '/api/admin/api-keys', { cookie: admin.cookie, body: {} });
  adminKey = issuedAdmin.body.raw_key;
  const member = await freshUser(server);
  await grantPremium(server, member.user.id, Date.now());
  const issuedPremium = await rest<{ raw_key: string }>(server.url, 'POST', '/api/premium/api-keys', { cookie: member.cookie, body: {} });
  premiumKey = issuedPremium.body.raw_key;
  expect([issuedAdmin.status, issuedPremium.status]).toEqual([201, 201]);
}, 60_000);

afterAll(async () => {
  closeAllClients();
  await server?.close();
});

/** A gathering ultiduo: the host, one member; an outsider who is in no lobby. */
interface World {
  code: string;
  host: LoggedIn;
  member: LoggedIn;
  outsider: LoggedIn;
}

async function world(): Promise<World> {
  const [host, member, outsider] = [await freshUser(server), await freshUser(server), await freshUser(server)];
  const lobby = await createLobby(server.url, host.cookie);
  const joined = await rest(server.url, 'POST', `/api/lobbies/${lobby.code}/join`, { cookie: member.cookie, body: {} });
  expect(joined.status).toBe(200);
  return { code: lobby.code, host, member, outsider };
}

/** A well-formed body for each command, aimed at the world's member. */
function bodyFor(name: LobbyCommandName, w: World, map: string): Record<string, unknown> {
  const userId = w.member.user.id;
  const bodies: Partial<Record<LobbyCommandName, Record<string, unknown>>> = {
    'pick-slot': { team: 'red', index: 0 },
    kick: { user_id: userId },
    'set-captain': { user_id: userId },
    pick: { user_id: userId },
    unpick: { user_id: userId },
    'drop-to-pool': { user_id: userId },
    'set-class': { class: 'soldier' },
    'vote-map': { map },
    chat: { message: 'parity' },
    report: { score_red: 1, score_blu: 0 },
  };
  return bodies[name] ?? {};
}

/** Joining is for someone outside; everything else is the host's. */
const callerIn = (name: LobbyCommandName, w: World): LoggedIn => (name === 'join' || name === 'party-join' ? w.outsider : w.host);

/** What the socket should ack for a REST answer: the same status, the same body (204 has none). */
function asAck(answer: RestAnswer<Record<string, unknown> | null>): CommandAck {
  if (answer.status < 300) return { ...(answer.body ?? {}), ok: true, status: answer.status };
  return { error: String(answer.body?.error), status: answer.status };
}

function viaRest(name: LobbyCommandName, code: string, body: Record<string, unknown>, credential: { cookie?: string; token?: string }) {
  const route = lobbyCommandContracts[name];
  const path = route.path.replace(':code', code);
  return rest<Record<string, unknown> | null>(server.url, route.method.toUpperCase(), path, { ...credential, body });
}

const viaSocket = (socket: LeagueClient, name: LobbyCommandName, code: string, body: Record<string, unknown>) =>
  request<CommandAck>(socket, 'lobby:command', { code, type: name, ...body });

const MAP = 'ultiduo_baloo_v2';

describe('every lobby command answers the same through REST and the socket', () => {
  it.each(LOBBY_COMMAND_NAMES)('%s, with a session', async (name) => {
    const [a, b] = [await world(), await world()];
    const answer = await viaRest(name, a.code, bodyFor(name, a, MAP), { cookie: callerIn(name, a).cookie });
    const socket = await connect(server.url, { cookie: callerIn(name, b).cookie });
    const ack = await viaSocket(socket, name, b.code, bodyFor(name, b, MAP));
    expect(ack).toEqual(asAck(answer));
  });

  it.each(LOBBY_COMMAND_NAMES.flatMap((name) => (['none', 'premium key', 'admin key'] as const).map((credential) => ({ name, credential }))))(
    '$name, with $credential',
    async ({ name, credential }) => {
      const w = await world();
      const token = credential === 'premium key' ? premiumKey : credential === 'admin key' ? adminKey : undefined;
      const answer = await viaRest(name, w.code, bodyFor(name, w, MAP), token ? { token } : {});
      const socket = await connect(server.url, token ? { token } : {});
      const ack = await viaSocket(socket, name, w.code, bodyFor(name, w, MAP));
      expect(ack).toEqual(asAck(answer));
      // Lobby commands are session routes: a key (or nothing) is refused, and the lobby is untouched.
      expect(answer).toEqual({ status: 401, body: { error: 'login required' } });
      expect((await rest<{ version: number }>(server.url, 'GET', `/api/lobbies/${w.code}`)).body.version).toBe(2);
    },
  );

  it('covers successes and refusals alike (the session cases are not all 4xx)', async () => {
    const statuses = new Set<number>();
    for (const name of ['join', 'vote-map', 'cancel', 'force-start', 'pick'] as const) {
      const w = await world();
      statuses.add((await viaRest(name, w.code, bodyFor(name, w, MAP), { cookie: callerIn(name, w).cookie })).status);
    }
    expect([...statuses].sort()).toEqual([200, 204, 403, 409]);
  });
});

describe('the key audit of a socket command', () => {
  async function auditOf(keyId: number) {
    return server.database.db.em().execute<Array<{ endpoint: string; method: string; status: number }>>(
      'select endpoint, method, status from api_key_audit where key_id = ? order by id',
      [keyId],
    );
  }

  it('is what its REST request leaves: none for a session route, and no per-command WS/101 row', async () => {
    const owner = await freshUser(server);
    await grantPremium(server, owner.user.id, Date.now());
    const issued = await rest<{ id: number; raw_key: string }>(server.url, 'POST', '/api/premium/api-keys', { cookie: owner.cookie, body: {} });
    const w = await world();
    const socket = await connect(server.url, { token: issued.body.raw_key });
    for (const name of ['join', 'vote-map', 'cancel'] as const) await viaSocket(socket, name, w.code, bodyFor(name, w, MAP));
    await viaRest('join', w.code, {}, { token: issued.body.raw_key });
    // A use the key route does audit, last: once its row is written, every earlier row is too (batches keep order).
    expect((await rest(server.url, 'GET', '/api/premium/api-keys/current', { token: issued.body.raw_key })).status).toBe(200);
    const rows = await poll(() => auditOf(issued.body.id), (written) => written.length >= 2, { withinMs: 5_000, what: 'both audit rows' });
    expect(rows).toEqual([
      { endpoint: '/socket.io/', method: 'WS', status: 101 },
      { endpoint: '/api/premium/api-keys/current', method: 'GET', status: 200 },
    ]);
  });
});
