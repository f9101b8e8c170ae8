import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Player } from '../api/lobby/lobby-client';
import { captureLogs, type CapturedLogs } from '../support/log-capture';
import type { TcpProxy } from '../support/tcp-proxy';
import { figure, timed, until } from '../support/timing';
import { startServerBehindProxy, type ServerBehindProxy } from './support/postgres-behind-proxy';

/**
 * Issue 21, item 1: a lobby command's durable part (membership, phase) is written before it is
 * acknowledged. With Postgres silent, a join used to answer 200 and its record was never written
 * (the save error was swallowed); now it answers 503, and the change the live store holds is
 * written by the retry once Postgres answers, as is a write-behind change made meanwhile.
 */
describe('lobby commands while Postgres is silent', () => {
  let world: ServerBehindProxy;
  let proxy: TcpProxy;
  let host: Player;
  let code: string;
  let logs: CapturedLogs;
  const failedWrites = () => logs.lines().filter((line) => line.includes('saving lobby records failed; retrying')).length;
  const login = () => world.login();
  const record = async (lobby: string) => {
    const [row] = await world.target.db.em().execute<Array<{ snapshot: { pool: number[]; version: number } }>>(
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

  it('answers a join whose record cannot be written 503, and writes the record once Postgres answers', async () => {
    const guest = await login();
    // Its user row is cached: the join needs Postgres only for the lobby record.
    await guest.get('/api/users/me');
    proxy.silence();
    const join = await timed(() => guest.post(`/api/lobbies/${code}/join`));
    figure('Postgres silent (DATABASE_TIMEOUT_MS=1000): join answered', join.ms);
    expect(join.value.status).toBe(503);
    expect(join.value.body).toEqual({ error: expect.any(String) });
    proxy.restore();
    const restoredAt = performance.now();
    await until(
      'the record holds the joined player',
      async () => ((await record(code))?.pool.includes(guest.id) ? true : null),
      10_000,
    );
    figure('Postgres answering again: the lobby record written after', performance.now() - restoredAt);
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
