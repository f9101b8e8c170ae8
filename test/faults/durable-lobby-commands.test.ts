import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Player } from '../api/lobby/lobby-client';
import { captureLogs, type CapturedLogs } from '../support/log-capture';
import { poll } from '../support/poll';
import type { TcpProxy } from '../support/tcp-proxy';
import { figure, timed, until } from '../support/timing';
import { startServerBehindProxy, type ServerBehindProxy } from './support/postgres-behind-proxy';

/**
 * Issue 21, item 1: a lobby command's durable part (membership, phase) is written before it is
 * acknowledged. With Postgres silent, a join used to answer 200 and its record was never written
 * (the save error was swallowed); now it answers 503 and changes nothing: the live change, pending
 * and announced to nobody while Postgres was asked, is taken back, so the lobby, its record and
 * the player's one-lobby entry are as before. A write-behind change (a vote) made meanwhile is
 * written once Postgres answers.
 */
describe('lobby commands while Postgres is silent', () => {
  let world: ServerBehindProxy;
  let proxy: TcpProxy;
  let host: Player;
  let code: string;
  let logs: CapturedLogs;
  const failedWrites = () => logs.lines().filter((line) => line.includes('saving lobby records failed; retrying')).length;
  const login = () => world.login();
  /** Postgres answers again, and the server knows it (its breaker lets requests through). */
  const restore = async () => {
    proxy.restore();
    await until('the server is ready again', async () => ((await fetch(`${world.server.url}/readyz`)).status === 200 ? true : null), 10_000);
  };
  const record = async (lobby: string) => {
    const [row] = await world.target.db.em().execute<Array<{ snapshot: { pool: number[]; version: number; phase: string } }>>(
      'select snapshot from lobby_records where code = ?',
      [lobby],
    );
    return row?.snapshot ?? null;
  };

  beforeAll(async () => {
    logs = captureLogs('warn');
    world = await startServerBehindProxy(1_000, { logger: logs.logger });
    proxy = world.proxy;
    host = await login();
    const created = await host.post('/api/lobbies', {});
    expect(created.status).toBe(200);
    code = created.body.code;
  }, 60_000);
  afterAll(async () => world?.close());

  it('answers a join whose record cannot be written 503, and the lobby stays as it was', async () => {
    const guest = await login();
    // Its user row is cached: the join needs Postgres only for the lobby record.
    await guest.get('/api/users/me');
    const before = (await host.get(`/api/lobbies/${code}`)).body;
    proxy.silence();
    const join = await timed(() => guest.post(`/api/lobbies/${code}/join`));
    figure('Postgres silent (DATABASE_TIMEOUT_MS=1000): join answered', join.ms);
    expect(join.value.status).toBe(503);
    expect(join.value.body).toEqual({ error: expect.any(String) });
    await restore();
    const after = (await host.get(`/api/lobbies/${code}`)).body;
    expect(after.pool).toEqual(before.pool);
    expect(after.version).toBeGreaterThan(before.version);
    // Postgres may have taken the refused write with only its answer lost: the state put back replaces it, written behind.
    await poll(() => record(code), (saved) => !(saved?.pool ?? []).includes(guest.id) && saved!.version >= after.version, { what: 'the record without the refused join' });
  });

  it('lets the player a refused join took back join again once Postgres answers, and that join is durable', async () => {
    const guest = await login();
    await guest.get('/api/users/me');
    proxy.silence();
    expect((await guest.post(`/api/lobbies/${code}/join`)).status).toBe(503);
    await restore();
    // Taken back: the one-lobby rule finds the player in no lobby.
    expect((await guest.post(`/api/lobbies/${code}/join`)).status).toBe(200);
    expect((await record(code))!.pool).toContain(guest.id);
  });

  it('answers a leave whose record cannot be written 503, and the player is still in the lobby', async () => {
    const guest = await login();
    expect((await guest.post(`/api/lobbies/${code}/join`)).status).toBe(200);
    proxy.silence();
    expect((await guest.post(`/api/lobbies/${code}/leave`)).status).toBe(503);
    await restore();
    const after = (await host.get(`/api/lobbies/${code}`)).body;
    expect(after.pool.map((player: { id: number }) => player.id)).toContain(guest.id);
    // Still its lobby: creating another is refused by the one-lobby rule.
    expect((await guest.post('/api/lobbies', {})).status).toBe(409);
  });

  it('answers a start-draft whose record cannot be written 503, and the lobby is still gathering', async () => {
    const guest = await login();
    expect((await guest.post(`/api/lobbies/${code}/join`)).status).toBe(200);
    const before = (await host.get(`/api/lobbies/${code}`)).body;
    expect(before.phase).toBe('gathering');
    proxy.silence();
    const start = await host.post(`/api/lobbies/${code}/start-draft`);
    expect(start.status).toBe(503);
    expect(start.body).toEqual({ error: expect.any(String) });
    await restore();
    const after = (await host.get(`/api/lobbies/${code}`)).body;
    expect(after).toMatchObject({ phase: 'gathering', captains: before.captains, pool: before.pool, teams: before.teams });
    // Postgres may have taken the refused write with only its answer lost: the state put back replaces it, written behind.
    await poll(() => record(code), (saved) => saved!.phase === 'gathering' && saved!.version >= after.version, { what: 'the record is gathering' });
  });

  it('writes a write-behind change made while Postgres was silent once it answers', async () => {
    const detail = await host.get(`/api/lobbies/${code}`);
    const map = detail.body.map_pool[0];
    const failedBefore = failedWrites();
    proxy.silence();
    expect((await host.post(`/api/lobbies/${code}/vote-map`, { map })).status).toBe(200);
    const { version } = (await host.get(`/api/lobbies/${code}`)).body;
    await until('a write-behind try failed', async () => (failedWrites() > failedBefore ? true : null), 10_000);
    proxy.restore();
    await until('the record holds the vote', async () => ((await record(code))!.version >= version ? true : null), 10_000);
  });
});
