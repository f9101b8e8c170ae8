import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FakeSteamOpenId } from '../../fakes/fake-steam-openid';
import { loginAs } from '../../support/login';
import type { SpawnedServer } from '../../support/spawn-server';
import { describeOnTwoInstances, startTwoInstances, type TwoInstances } from '../../support/two-instances';
import { call, issueKey } from '../identity/identity-fixtures';
import { nextPlatformId, Player } from '../lobby/lobby-client';
import { makeTeam, tournamentBody, type TestTeam } from './tournament-fixtures';

/*
 * Two server processes sharing Redis and Postgres: result writes for one tournament racing
 * through both must be serialised (one row lock), so no advance is lost and every change gets
 * its own version.
 */
describeOnTwoInstances('tournament results on two server processes', () => {
  const adminPlatformId = '76561198000077023';
  let instances: TwoInstances;
  let provider: FakeSteamOpenId;
  let servers: SpawnedServer[];
  let adminKey: string;

  beforeAll(async () => {
    instances = await startTwoInstances({ ADMIN_PLATFORM_IDS: adminPlatformId });
    ({ provider, servers } = instances);
    const admin = await loginAs(servers[0], provider, adminPlatformId);
    adminKey = (await issueKey(servers[0], admin.cookie, 'admin')).raw;
  }, 180_000);

  afterAll(() => instances?.close());

  async function asAdmin(on: SpawnedServer, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await call(on, path, { method: body === undefined ? 'GET' : 'POST', bearer: adminKey, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  async function startedWith(count: number): Promise<{ id: number; teams: TestTeam[] }> {
    const created = await asAdmin(servers[0], '/api/admin/tournaments', tournamentBody({ max_teams: count }));
    const id = created.body.id;
    const teams: TestTeam[] = [];
    for (let i = 0; i < count; i += 1) {
      const { cookie, user } = await loginAs(servers[i % 2], provider, nextPlatformId());
      const team = await makeTeam(instances.database.db, new Player(servers[0].url, cookie, user));
      expect((await team.leader.post(`/api/tournaments/${id}/entries`, { team_id: team.id })).status).toBe(201);
      teams.push(team);
    }
    expect((await asAdmin(servers[1], `/api/admin/tournaments/${id}/start`, {})).status).toBe(200);
    return { id, teams };
  }

  async function matches(id: number): Promise<any[]> {
    const bracket = (await asAdmin(servers[0], `/api/tournaments/${id}/bracket`)).body;
    return bracket.stages.flatMap((s: any) => s.rounds.flatMap((r: any) => r.matches));
  }

  const version = async (id: number) => (await asAdmin(servers[1], `/api/tournaments/${id}`)).body.version;

  it('keeps both winners when the two semi-finals are confirmed at once through both instances', async () => {
    const { id, teams } = await startedWith(4);
    const [semiA, semiB] = await matches(id);
    const leader = (teamId: number, on: SpawnedServer) => teams.find((t) => t.id === teamId)!.leader.on(on.url);
    const before = await version(id);
    await Promise.all(
      [semiA, semiB].map(async (match, i) => {
        const on = servers[i]!;
        expect((await leader(match.home.team_id, on).post(`/api/tournaments/${id}/matches/${match.id}/report`, { home_score: 2, away_score: 1 })).status).toBe(200);
        expect((await leader(match.away.team_id, on).post(`/api/tournaments/${id}/matches/${match.id}/confirm`)).status).toBe(200);
      }),
    );
    const final = (await matches(id)).at(-1);
    expect(final).toMatchObject({ status: 'ready', home: { team_id: semiA.home.team_id }, away: { team_id: semiB.home.team_id } });
    expect(await version(id)).toBe(before + 4);
  });

  it('serialises 12 concurrent corrections through both instances: the final follows the last one and each has its own version', async () => {
    const { id } = await startedWith(4);
    const [semiA] = await matches(id);
    const before = await version(id);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        asAdmin(servers[i % 2]!, `/api/admin/tournaments/${id}/matches/${semiA.id}/result`, i % 2 === 0 ? { home_score: 2, away_score: 0 } : { home_score: 0, away_score: 2 }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    const [semi, , final] = await matches(id);
    expect(final.home.team_id).toBe(semi.winner_team_id);
    expect(await version(id)).toBe(before + 12);
  });
});
