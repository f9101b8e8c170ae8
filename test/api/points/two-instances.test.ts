import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FakeSteamOpenId } from '../../fakes/fake-steam-openid';
import { loginAs } from '../../support/login';
import type { SpawnedServer } from '../../support/spawn-server';
import type { TestDatabase } from '../../support/test-database';
import { describeOnTwoInstances, startTwoInstances, type TwoInstances } from '../../support/two-instances';
import { call, issueKey } from '../identity/identity-fixtures';
import { nextPlatformId, Player } from '../lobby/lobby-client';
import { poll } from '../../support/poll';

/*
 * Two server processes sharing one Redis and one Postgres: spends racing through both must never
 * take a balance below zero, and a change made on one must show on the other's cached leaderboard.
 */
describeOnTwoInstances('points on two server processes sharing Redis and Postgres', () => {
  const adminPlatformId = '76561198000077002';
  let instances: TwoInstances;
  let database: TestDatabase;
  let provider: FakeSteamOpenId;
  let servers: SpawnedServer[];
  let adminKey: string;

  beforeAll(async () => {
    instances = await startTwoInstances({ ADMIN_PLATFORM_IDS: adminPlatformId });
    ({ database, provider, servers } = instances);
    const admin = await loginAs(servers[0], provider, adminPlatformId);
    adminKey = (await issueKey(servers[0], admin.cookie, 'admin')).raw;
  }, 180_000);

  afterAll(() => instances?.close());

  const award = (on: SpawnedServer, userId: number, amount: number) =>
    call(on, '/api/points/admin/award', { method: 'POST', bearer: adminKey, body: { user_id: userId, amount, reason: 'race stake' } });

  async function newPlayer(): Promise<Player> {
    const { cookie, user } = await loginAs(servers[0], provider, nextPlatformId());
    return new Player(servers[0].url, cookie, user);
  }

  it('lets exactly one of 10 redeems through both instances buy a reward costing more than half the balance', async () => {
    const player = await newPlayer();
    const rewards = (await fetch(`${servers[0].url}/api/points/rewards`).then((r) => r.json())) as { id: number; cost: number; active: boolean }[];
    const reward = rewards.find((r) => r.active && r.cost >= 400)!;
    const stake = reward.cost + Math.floor(reward.cost / 2);
    expect((await award(servers[1], player.id, stake)).status).toBe(200);

    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => player.on(servers[i % 2].url).post('/api/points/redeem', { reward_id: reward.id })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // A loser either queued on the balance row and found it short (402), or came after the winner
    // committed and found the reward owned (409); the ledger below shows only one spend went through.
    for (const status of statuses.filter((s) => s !== 200)) expect([402, 409]).toContain(status);

    const balance = (await player.on(servers[1].url).get('/api/points/balance')).body;
    expect(balance).toEqual({ balance: stake - reward.cost, lifetime_earned: stake, lifetime_spent: reward.cost });
    const [ledger] = await database.db
      .em()
      .execute<{ n: number; total: number; lowest: number }[]>(
        'select count(*)::int as n, sum(amount)::int as total, min(balance_after)::int as lowest from point_transactions where user_id = ?',
        [player.id],
      );
    expect(ledger).toEqual({ n: 2, total: stake - reward.cost, lowest: stake - reward.cost });
  });

  it('lets exactly one of 10 custom avatar purchases through both instances spend a balance of one and a half prices', async () => {
    const player = await newPlayer();
    const price = 500; // POINTS_CUSTOM_AVATAR_COST's default
    await award(servers[0], player.id, 750);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        player.on(servers[i % 2].url).post('/api/users/set-custom-avatar', { avatar_url: `https://cdn.example.com/a${i}.png` }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(402)]);
    expect((await player.get('/api/points/balance')).body).toEqual({ balance: 250, lifetime_earned: 750, lifetime_spent: price });
    const winner = answers.findIndex((a) => a.status === 200);
    expect((await player.get('/api/users/me')).body.custom_avatar_url).toBe(`https://cdn.example.com/a${winner}.png`);
  });

  it('never lets redeems of every reward at once through both instances take the balance below zero', async () => {
    const player = await newPlayer();
    const rewards = ((await fetch(`${servers[0].url}/api/points/rewards`).then((r) => r.json())) as { id: number; cost: number; active: boolean }[]).filter((r) => r.active);
    const stake = 1000;
    await award(servers[0], player.id, stake);
    const answers = await Promise.all(
      rewards.map((r, i) => player.on(servers[i % 2].url).post('/api/points/redeem', { reward_id: r.id })),
    );
    const spent = rewards.reduce((sum, r, i) => sum + (answers[i].status === 200 ? r.cost : 0), 0);
    expect(answers.every((a) => a.status === 200 || a.status === 402)).toBe(true);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(stake);
    const left = (await player.get('/api/points/balance')).body.balance;
    expect(left).toBe(stake - spent);
    // Balances only fall here, so every refusal was a real shortage: what is left pays none of them.
    rewards.forEach((r, i) => {
      if (answers[i].status === 402) expect(left).toBeLessThan(r.cost);
    });
    const [{ lowest }] = await database.db
      .em()
      .execute<{ lowest: number }[]>('select min(balance_after)::int as lowest from point_transactions where user_id = ?', [player.id]);
    expect(lowest).toBeGreaterThanOrEqual(0);
  });

  it('shows an award made on one instance on the other instance\'s cached leaderboard at once', async () => {
    const player = await newPlayer();
    const board = () => fetch(`${servers[1].url}/api/points/leaderboard`).then((r) => r.json()) as Promise<{ user_id: number; balance: number }[]>;
    await board(); // warm instance 2's cache
    expect((await award(servers[0], player.id, 250_000)).status).toBe(200);
    // The invalidation travels over Redis pub/sub; a read may race it by a moment, never by 30 s.
    const [top] = await poll(board, (rows) => rows[0]?.user_id === player.id, { withinMs: 5_000, everyMs: 20, what: "the award on instance 2's leaderboard" });
    expect(top).toMatchObject({ user_id: player.id, balance: 250_000 });
  });
});
