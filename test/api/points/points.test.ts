import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { call, grantPremium, issueKey } from '../identity/identity-fixtures';
import { draftAll, nextPlatformId, Player } from '../lobby/lobby-client';

/**
 * The points doors over real HTTP: a match pays, the catalogue sells, a makeover shows what was
 * bought, the leaderboard ranks balances, an admin key awards with an audit row.
 * Earning is configured generously (200 a match, 300 more for a win) so a win buys a name colour.
 */
const adminPlatformId = '76561198000077001';
let server: TestServerWithLogin;
let admin: Player;
let players: Player[];
let adminKey: string;
let premiumKey: string;

beforeAll(async () => {
  server = await startTestServerWithLogin({ POINTS_MATCH_PLAYED: '200', POINTS_MATCH_WON: '300', POINTS_CUSTOM_AVATAR_COST: '150', ADMIN_PLATFORM_IDS: adminPlatformId });
  const adminLogin = await server.login(adminPlatformId);
  admin = new Player(server.url, adminLogin.cookie, adminLogin.user);
  adminKey = (await issueKey(server, admin.cookie, 'admin')).raw;
  players = [];
  for (let i = 0; i < 6; i++) {
    const { cookie, user } = await server.login(nextPlatformId());
    players.push(new Player(server.url, cookie, user));
  }
  await grantPremium(server, players[5].id, Date.now());
  premiumKey = (await issueKey(server, players[5].cookie, 'premium')).raw;
}, 60_000);
afterAll(async () => server?.close());

const getJson = async (path: string) => {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, body: await response.json(), cache: response.headers.get('cache-control') };
};
const award = (body: unknown, credential: { bearer?: string; cookie?: string } = { bearer: adminKey }) =>
  call(server, '/api/points/admin/award', { method: 'POST', ...credential, body });
const rewardNamed = async (name: string) => (await getJson('/api/points/rewards')).body.find((r: { name: string }) => r.name === name);

/** An ultiduo (2 a side) to its report; the first two players' side wins 3-1. */
async function playUltiduo(four: Player[]): Promise<{ winners: Player[]; losers: Player[] }> {
  const [host, ...rest] = four;
  const code: string = (await host.post('/api/lobbies', { format: 'ultiduo' })).body.code;
  for (const player of rest) await player.command(code, 'join');
  await host.command(code, 'start-draft');
  const lobby = await draftAll(server.url, code, four);
  await host.command(code, 'force-start');
  await host.command(code, 'report', { score_red: 3, score_blu: 1 }, 201);
  const red = new Set(lobby.teams.red.map((slot) => slot.user!.id));
  return { winners: four.filter((p) => red.has(p.id)), losers: four.filter((p) => !red.has(p.id)) };
}

describe('the points flow of a season', () => {
  it('pays a match, sells a name colour, applies it to the card, and ranks the balances', async () => {
    const { winners, losers } = await playUltiduo(players.slice(0, 4));

    for (const p of winners) expect((await p.get('/api/points/balance')).body).toEqual({ balance: 500, lifetime_earned: 500, lifetime_spent: 0 });
    for (const p of losers) expect((await p.get('/api/points/balance')).body).toEqual({ balance: 200, lifetime_earned: 200, lifetime_spent: 0 });
    const [earned] = (await winners[0].get('/api/points/transactions')).body;
    expect(earned).toMatchObject({ amount: 500, kind: 'match', balance_after: 500 });

    const crimson = await rewardNamed('Crimson name');
    const buyer = winners[0];
    const redeemed = await buyer.post('/api/points/redeem', { reward_id: crimson.id });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body).toMatchObject({ ok: true, balance: 500 - crimson.cost, redemption: { reward_id: crimson.id, reward_name: 'Crimson name', cost: crimson.cost } });
    expect((await buyer.get('/api/points/redemptions')).body.map((r: { reward_id: number }) => r.reward_id)).toEqual([crimson.id]);

    expect((await buyer.post('/api/users/set-profile-makeover', { name_color_reward_id: crimson.id })).status).toBe(200);
    const card = await getJson(`/api/users/card/${buyer.id}`);
    expect(card.body.name_color).toBe(crimson.value);
    expect((await buyer.get('/api/users/me')).body.name_color).toBe(crimson.value);
    expect((await getJson(`/api/users/${buyer.user.platform_id}`)).body.name_color).toBe(crimson.value);

    const board = await getJson('/api/points/leaderboard');
    expect(board.cache).toBe('public, max-age=30');
    const ranked = board.body.filter((row: { user_id: number }) => players.slice(0, 4).some((p) => p.id === row.user_id));
    expect(ranked[0]).toEqual({ rank: 1, user_id: winners[1].id, username: winners[1].user.username, balance: 500 });
    expect(ranked.map((r: { balance: number }) => r.balance)).toEqual([500, 500 - crimson.cost, 200, 200].sort((a, b) => b - a));
    expect(board.body.map((r: { rank: number }) => r.rank)).toEqual(board.body.map((_: unknown, i: number) => i + 1));
  });
});

describe('the reward catalogue', () => {
  it('is public and cached, lists every kind with id, name, kind, cost, value and active', async () => {
    const { status, body, cache } = await getJson('/api/points/rewards');
    expect(status).toBe(200);
    expect(cache).toBe('public, max-age=30');
    expect(new Set(body.map((r: { kind: string }) => r.kind))).toEqual(new Set(['name_color', 'profile_frame']));
    expect(Object.keys(body[0]).sort()).toEqual(['active', 'cost', 'id', 'kind', 'name', 'value']);
    expect(body.some((r: { active: boolean }) => !r.active)).toBe(true);
  });
});

describe('redeeming', () => {
  it('answers 404 for an unknown reward and for one no longer offered', async () => {
    const retired = (await getJson('/api/points/rewards')).body.find((r: { active: boolean }) => !r.active);
    await award({ user_id: players[4].id, amount: 5000, reason: 'test float' });
    expect((await players[4].post('/api/points/redeem', { reward_id: 999_999 })).status).toBe(404);
    expect(await players[4].post('/api/points/redeem', { reward_id: retired.id })).toEqual({ status: 404, body: { error: 'reward not found' } });
  });

  it('answers 402 when the balance does not cover the cost, and takes nothing', async () => {
    const gold = await rewardNamed('Gold frame');
    const poor = players[2];
    const before = (await poor.get('/api/points/balance')).body;
    expect(await poor.post('/api/points/redeem', { reward_id: gold.id })).toEqual({ status: 402, body: { error: 'not enough points' } });
    expect((await poor.get('/api/points/balance')).body).toEqual(before);
  });

  it('answers 409 for a reward already owned', async () => {
    const azure = await rewardNamed('Azure name');
    expect((await players[4].post('/api/points/redeem', { reward_id: azure.id })).status).toBe(200);
    expect((await players[4].post('/api/points/redeem', { reward_id: azure.id })).status).toBe(409);
  });

  it('refuses a body without an integer reward_id with 400 and a caller without a session with 401', async () => {
    expect((await players[4].post('/api/points/redeem', { reward_id: 'gold' })).status).toBe(400);
    expect((await call(server, '/api/points/redeem', { method: 'POST', body: { reward_id: 1 } })).status).toBe(401);
    expect((await call(server, '/api/points/balance')).status).toBe(401);
  });
});

describe('a profile makeover with owned rewards', () => {
  it('applies an owned frame, answers 404 for a frame not owned, and clears with null', async () => {
    const bronze = await rewardNamed('Bronze frame');
    const silver = await rewardNamed('Silver frame');
    const owner = players[4];
    await owner.post('/api/points/redeem', { reward_id: bronze.id });
    expect((await owner.post('/api/users/set-profile-makeover', { profile_frame_reward_id: silver.id })).status).toBe(404);
    expect((await owner.post('/api/users/set-profile-makeover', { profile_frame_reward_id: bronze.id })).status).toBe(200);
    expect((await getJson(`/api/users/card/${owner.id}`)).body.profile_frame).toBe('bronze');
    expect((await owner.post('/api/users/set-profile-makeover', { profile_frame_reward_id: null })).status).toBe(200);
    expect((await getJson(`/api/users/card/${owner.id}`)).body.profile_frame).toBeNull();
  });

  it('will not apply a name colour reward as a frame', async () => {
    const azure = await rewardNamed('Azure name');
    expect((await players[4].post('/api/users/set-profile-makeover', { profile_frame_reward_id: azure.id })).status).toBe(404);
  });
});

describe('a custom avatar', () => {
  it('costs the configured price and shows on the profile', async () => {
    const buyer = players[4];
    const before = (await buyer.get('/api/points/balance')).body.balance;
    const url = 'https://cdn.example.com/avatars/me.png';
    expect((await buyer.post('/api/users/set-custom-avatar', { avatar_url: url })).status).toBe(200);
    expect((await buyer.get('/api/points/balance')).body.balance).toBe(before - 150);
    const [spend] = (await buyer.get('/api/points/transactions')).body;
    expect(spend).toMatchObject({ amount: -150, kind: 'custom_avatar', balance_after: before - 150 });
    expect((await buyer.get('/api/users/me')).body).toMatchObject({ custom_avatar_url: url, avatar_url: url });
    expect((await getJson(`/api/users/card/${buyer.id}`)).body.avatar_url).toBe(url);
  });

  it('answers 402 without enough points and leaves the avatar as it was', async () => {
    const poor = players[5];
    expect(await poor.post('/api/users/set-custom-avatar', { avatar_url: 'https://cdn.example.com/a.png' })).toEqual({ status: 402, body: { error: 'not enough points' } });
    expect((await poor.get('/api/users/me')).body.custom_avatar_url).toBeNull();
  });
});

describe('the ledger pages', () => {
  it('list newest first, honour limit and page, and refuse a limit that is not a number with 400', async () => {
    const p = players[4];
    const all = (await p.get('/api/points/transactions?limit=100')).body as { id: number }[];
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.map((t) => t.id)).toEqual([...all.map((t) => t.id)].sort((a, b) => b - a));
    expect((await p.get('/api/points/transactions?limit=2&page=2')).body).toEqual(all.slice(2, 4));
    expect((await p.get('/api/points/transactions?limit=1000')).status).toBe(200);
    const bad = await p.get('/api/points/transactions?limit=many');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^limit/);
  });
});

describe('an admin award', () => {
  it('with an admin key adds points, writes the ledger row and an admin_audit row with before and after', async () => {
    const target = players[3];
    const before = (await target.get('/api/points/balance')).body.balance;
    const response = await award({ user_id: target.id, amount: 75, reason: 'tournament prize' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ ok: true, balance: before + 75, transaction: { amount: 75, kind: 'admin_award', reason: 'tournament prize', balance_after: before + 75 } });
    const [audit] = await server.server.db
      .em()
      .execute('select actor_id, action, target_type, target_id, before, after, reason from admin_audit where id = ?', [body.audit_id]);
    expect(audit).toEqual({
      actor_id: admin.id,
      action: 'points.award',
      target_type: 'user',
      target_id: String(target.id),
      before: expect.objectContaining({ balance: before }),
      after: expect.objectContaining({ balance: before + 75, amount: 75 }),
      reason: 'tournament prize',
    });
  });

  it('shows on the points leaderboard at once', async () => {
    await award({ user_id: players[5].id, amount: 900_000, reason: 'top' });
    expect((await getJson('/api/points/leaderboard')).body[0]).toMatchObject({ rank: 1, user_id: players[5].id, balance: 900_000 });
  });

  it('refuses a premium key with 403, no credential with 401, and an admin session (not an admin key) with 401', async () => {
    const body = { user_id: players[0].id, amount: 10, reason: 'x' };
    expect((await award(body, { bearer: premiumKey })).status).toBe(403);
    expect((await award(body, {})).status).toBe(401);
    expect((await award(body, { cookie: admin.cookie })).status).toBe(401);
    const awarded = await server.server.db
      .em()
      .execute("select count(*)::int as n from point_transactions where user_id = ? and kind = 'admin_award'", [players[0].id]);
    expect(awarded).toEqual([{ n: 0 }]);
  });

  it('refuses a zero amount or an empty reason with 400, an unknown user with 404, and a correction below zero with 409', async () => {
    expect((await award({ user_id: players[0].id, amount: 0, reason: 'nothing' })).status).toBe(400);
    expect((await award({ user_id: players[0].id, amount: 5, reason: '  ' })).status).toBe(400);
    expect((await award({ user_id: 999_999, amount: 5, reason: 'ghost' })).status).toBe(404);
    const balance = (await players[1].get('/api/points/balance')).body.balance;
    expect((await award({ user_id: players[1].id, amount: -(balance + 1), reason: 'too much' })).status).toBe(409);
    expect((await players[1].get('/api/points/balance')).body.balance).toBe(balance);
  });

  it('takes points back with a negative amount', async () => {
    const balance = (await players[1].get('/api/points/balance')).body.balance;
    expect((await award({ user_id: players[1].id, amount: -50, reason: 'correction' })).status).toBe(200);
    expect((await players[1].get('/api/points/balance')).body).toMatchObject({ balance: balance - 50 });
  });
});
