import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSteamOpenId, type FakeSteamOpenId } from '../../fakes/fake-steam-openid';
import { loginAs } from '../../support/login';
import { startServerProcess, type SpawnedServer } from '../../support/spawn-server';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { draftAll, lobbyAt, nextPlatformId, Player, seatedIds } from './lobby-client';
import { deleteKeysWithPrefix } from '../../support/redis-prefix';

/*
 * Two server processes sharing one Redis and one Postgres, as behind a load balancer: the
 * one-open-lobby rule and the lobby's seats must hold across them. Needs REDIS_URL and
 * DATABASE_URL (the embedded PGlite serves one process well, two processes' pools poorly);
 * without them the test is skipped, unless CI is set, where it fails instead.
 */
const redisUrl = process.env.REDIS_URL;
const shared = Boolean(redisUrl && process.env.DATABASE_URL);
const required = Boolean(process.env.CI);

describe.runIf(!shared && required)('two instances (required)', () => {
  it('has a Redis and a Postgres to share', () => expect.fail('CI is set but REDIS_URL or DATABASE_URL is not: the multi-instance test cannot run'));
});

describe.skipIf(!shared)('two server processes sharing Redis and Postgres', () => {
  const prefix = `t2${randomBytes(5).toString('hex')}:`;
  let database: TestDatabase;
  let provider: FakeSteamOpenId;
  let servers: SpawnedServer[] = [];
  const dataDirs: string[] = [];
  let players: Player[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    provider = await startFakeSteamOpenId();
    const secret = randomBytes(32).toString('base64url');
    for (let i = 0; i < 2; i++) {
      const dataDir = await mkdtemp(join(tmpdir(), 'league-two-'));
      dataDirs.push(dataDir);
      servers.push(
        await startServerProcess({
          NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: database.url, REDIS_URL: redisUrl!, REDIS_PREFIX: prefix,
          SESSION_SECRET: secret, STEAM_OPENID_URL: provider.url, SEED_DEMO_DATA: 'never', LOG_LEVEL: 'warn',
        }),
      );
    }
    for (let i = 0; i < 24; i++) {
      const { cookie, user } = await loginAs(servers[0], provider, nextPlatformId());
      players.push(new Player(servers[i % 2].url, cookie, user));
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await provider?.close();
    await database?.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    await deleteKeysWithPrefix(redisUrl!, prefix);
  });

  it('seats exactly 12 of 21 after twenty concurrent joins through both, with nobody twice', async () => {
    const [host, ...joiners] = players.slice(0, 21);
    const created = await host.post('/api/lobbies', {});
    expect(created.status).toBe(200);
    const code: string = created.body.code;
    const answers = await Promise.all(joiners.map((p) => p.post(`/api/lobbies/${code}/join`)));
    expect(answers.map((a) => a.status), servers.map((s) => s.output()).join('\n')).toEqual(joiners.map(() => 200));
    const gathered = await lobbyAt(servers[1].url, code);
    expect(gathered.pool).toHaveLength(21);
    expect(gathered.version).toBe(21);

    await host.command(code, 'start-draft');
    const lobby = await draftAll(servers[0].url, code, players);
    const seated = seatedIds(lobby);
    const everyone = [...seated, ...lobby.pool.map((u) => u.id)];
    expect(seated).toHaveLength(12);
    expect(new Set(everyone).size).toBe(everyone.length);
    expect(everyone.sort()).toEqual([host, ...joiners].map((p) => p.id).sort());
  });

  it('lets one user into only one of two lobbies joined at once through different instances', async () => {
    const [a, b, racer] = players.slice(21, 24);
    const one = (await a.post('/api/lobbies', {})).body.code;
    const two = (await b.post('/api/lobbies', {})).body.code;
    const answers = await Promise.all([
      racer.on(servers[0].url).post(`/api/lobbies/${one}/join`),
      racer.on(servers[1].url).post(`/api/lobbies/${two}/join`),
    ]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    const inLobbies = [await lobbyAt(servers[0].url, one), await lobbyAt(servers[1].url, two)].filter((l) =>
      l.pool.some((u) => u.id === racer.id),
    );
    expect(inLobbies).toHaveLength(1);
  });

  it("shows each player's new rating on /api/users/me through either instance as soon as the match is reported", async () => {
    const twelve: Player[] = [];
    for (let i = 0; i < 12; i++) {
      const { cookie, user } = await loginAs(servers[0], provider, nextPlatformId());
      twelve.push(new Player(servers[i % 2].url, cookie, user));
    }
    // Both instances have read (and may keep) every player's row before the match changes it.
    for (const player of twelve) for (const server of servers) expect((await player.on(server.url).get('/api/users/me')).body.elo).toBe(player.user.elo);

    const [host, ...rest] = twelve;
    const code: string = (await host.post('/api/lobbies', { format: '6v6' })).body.code;
    for (const player of rest) await player.command(code, 'join');
    await host.command(code, 'start-draft');
    let lobby = await draftAll(servers[0].url, code, twelve);
    for (const player of twelve) await player.command(code, 'ready');
    lobby = await lobbyAt(servers[1].url, code);
    expect(lobby.phase).toBe('live');
    const redCaptain = twelve.find((p) => p.id === lobby.captains.red)!;
    await redCaptain.on(servers[1].url).command(code, 'report', { score_red: 2, score_blu: 0 }, 201);

    const redIds = lobby.teams.red.map((slot) => slot.user!.id);
    for (const player of twelve) {
      for (const server of servers) {
        const elo: number = (await player.on(server.url).get('/api/users/me')).body.elo;
        if (redIds.includes(player.id)) expect(elo, `user ${player.id} on ${server.url}`).toBeGreaterThan(player.user.elo);
        else expect(elo, `user ${player.id} on ${server.url}`).toBeLessThan(player.user.elo);
      }
    }
  });
});
