import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { call } from './identity-fixtures';

const ids = Array.from({ length: 4 }, (_, i) => `7656119800000060${i}`);

let server: TestServerWithLogin;
const users: Array<{ id: number; cookie: string; platformId: string }> = [];

beforeAll(async () => {
  server = await startTestServerWithLogin();
  for (const [i, platformId] of ids.entries()) {
    const { cookie, user } = await server.login(platformId);
    users.push({ id: user.id, cookie, platformId });
    await server.server.db.em().execute('update users set elo = ? where id = ?', [1000 + i * 100, user.id]);
  }
});
afterAll(async () => server?.close());

const json = async (path: string, cookie?: string) => {
  const response = await call(server, path, { cookie });
  return { status: response.status, body: await response.json() };
};

describe('the users routes', () => {
  it('rank the leaderboard by ELO, highest first, as UserPublic rows', async () => {
    const { status, body } = await json('/api/users/leaderboard');
    expect(status).toBe(200);
    expect(body.map((u: { platform_id: string }) => u.platform_id)).toEqual([...ids].reverse());
    expect(Object.keys(body[0]).sort()).toEqual(['avatar_url', 'elo', 'id', 'name_color', 'platform_id', 'profile_frame', 'username']);
  });

  it('honour the leaderboard limit and refuse one that is not a number with 400', async () => {
    expect((await json('/api/users/leaderboard?limit=2')).body).toHaveLength(2);
    expect((await json('/api/users/leaderboard?limit=100000')).status).toBe(200);
    const bad = await json('/api/users/leaderboard?limit=lots');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^limit/);
  });

  it('list as online the users seen within the last five minutes', async () => {
    await call(server, '/api/users/me', { cookie: users[2].cookie });
    const { body } = await json('/api/users/online');
    expect(body.map((u: { id: number }) => u.id)).toContain(users[2].id);
  });

  it('answer a user card with record and presence, or 404', async () => {
    await call(server, '/api/users/me', { cookie: users[1].cookie });
    const { status, body } = await json(`/api/users/card/${users[1].id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: users[1].id, platform_id: ids[1], online: true, matches_played: 0, wins: 0, losses: 0 });
    expect((await json('/api/users/card/999999')).status).toBe(404);
    expect((await json('/api/users/card/abc')).status).toBe(404);
  });

  it('find a user by platform id, or answer 404', async () => {
    expect((await json(`/api/users/${ids[0]}`)).body).toMatchObject({ id: users[0].id, platform_id: ids[0] });
    expect((await json('/api/users/76561198999999999')).status).toBe(404);
  });

  it('do not let the platform id lookup shadow the fixed paths', async () => {
    expect((await json('/api/users/me')).status).toBe(401);
    expect((await json('/api/users/online')).status).toBe(200);
    expect((await json('/api/users/stats/global')).status).toBe(200);
  });
});

describe('buying a custom avatar', () => {
  const buy = (body: unknown, cookie = users[0].cookie) => call(server, '/api/users/set-custom-avatar', { method: 'POST', cookie, body });

  it('needs avatar_url: 400 naming the field', async () => {
    const response = await buy({});
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/^avatar_url/);
  });

  it('refuses a URL that is not an https image with 400', async () => {
    expect((await buy({ avatar_url: 'http://img.example/a.png' })).status).toBe(400);
  });

  it('answers 402 when the balance is below the price, and keeps the avatar as it was', async () => {
    const response = await buy({ avatar_url: 'https://img.example/a.png' });
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ error: 'not enough points' });
    expect((await json('/api/users/me', users[0].cookie)).body.custom_avatar_url).toBeNull();
  });
});

describe('a profile makeover', () => {
  const makeover = (body: unknown) => call(server, '/api/users/set-profile-makeover', { method: 'POST', cookie: users[0].cookie, body });

  it('needs at least one of the two rewards: 400', async () => {
    expect((await makeover({})).status).toBe(400);
  });

  it('refuses a reward id that is not an integer with 400', async () => {
    expect((await makeover({ name_color_reward_id: 'red' })).status).toBe(400);
  });

  it('answers 404 for a catalogue reward the user does not own', async () => {
    expect((await makeover({ profile_frame_reward_id: 3 })).status).toBe(404);
  });
});

describe('clearing a profile look', () => {
  it('sets name_color back to null with name_color_reward_id: null', async () => {
    await server.server.db.em().execute("update users set name_color = '#ff0000' where id = ?", [users[3].id]);
    const response = await call(server, '/api/users/set-profile-makeover', { method: 'POST', cookie: users[3].cookie, body: { name_color_reward_id: null } });
    expect(response.status).toBe(200);
    expect((await (await call(server, `/api/users/${ids[3]}`)).json()).name_color).toBeNull();
  });
});
