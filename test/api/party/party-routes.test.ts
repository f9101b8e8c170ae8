import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { lobbyAt, nextPlatformId, Player } from '../lobby/lobby-client';

let server: TestServerWithLogin;

async function player(): Promise<Player> {
  const { cookie, user } = await server.login(nextPlatformId());
  return new Player(server.url, cookie, user);
}

/** A leader with `size - 1` members who joined by accepting an invite. */
async function party(size: number): Promise<Player[]> {
  const members = [await player()];
  expect((await members[0].post('/api/parties/create', { name: 'stack' })).status).toBe(201);
  for (let i = 1; i < size; i++) {
    const member = await player();
    expect(await members[0].post('/api/parties/invite', { to_platform_id: member.user.platform_id })).toEqual({ status: 200, body: { ok: true } });
    const { received_invites } = (await member.get('/api/parties/me')).body;
    expect((await member.post(`/api/parties/invite/${received_invites[0].id}/accept`)).status).toBe(200);
    members.push(member);
  }
  return members;
}

beforeAll(async () => {
  server = await startTestServerWithLogin();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('party routes', () => {
  it('answer {party: null} without a session and without a party', async () => {
    expect(await fetch(`${server.url}/api/parties/me`).then((r) => r.json())).toEqual({ party: null, received_invites: [] });
    const loner = await player();
    expect((await loner.get('/api/parties/me')).body.party).toBeNull();
  });

  it('create answers 201 with the code; a second party is 409; a long name 400', async () => {
    const leader = await player();
    expect((await leader.post('/api/parties/create', { name: 'x'.repeat(33) })).status).toBe(400);
    const created = await leader.post('/api/parties/create', {});
    expect(created).toEqual({ status: 201, body: { code: expect.stringMatching(/^[A-Z2-9]{6}$/) } });
    expect((await leader.get('/api/parties/me')).body.party).toMatchObject({ code: created.body.code, leader_id: leader.id, invites: [] });
    expect((await leader.post('/api/parties/create', {})).status).toBe(409);
  });

  it('invite to an unknown platform id is 404; to nobody a 400', async () => {
    const [leader] = await party(1);
    expect((await leader.post('/api/parties/invite', { to_platform_id: '76561190000000001' })).status).toBe(404);
    expect((await leader.post('/api/parties/invite', {})).status).toBe(400);
  });

  it('accept puts the invitee in; decline drops the invite', async () => {
    const [leader, member] = await party(2);
    expect((await leader.get('/api/parties/me')).body.party.members.map((m: { id: number }) => m.id)).toEqual([leader.id, member.id]);
    const other = await player();
    await leader.post('/api/parties/invite', { to_platform_id: other.user.platform_id });
    const invite = (await other.get('/api/parties/me')).body.received_invites[0];
    expect((await member.post(`/api/parties/invite/${invite.id}/decline`)).status).toBe(403);
    expect((await other.post(`/api/parties/invite/${invite.id}/decline`)).status).toBe(200);
    expect((await leader.get('/api/parties/me')).body.party.invites).toEqual([]);
    expect((await other.post(`/api/parties/invite/${invite.id}/accept`)).status).toBe(404);
  });

  it('kick is the leader’s; leave passes the lead on; disband ends it for all', async () => {
    const [leader, a, b] = await party(3);
    expect((await a.post('/api/parties/kick', { user_id: b.id })).status).toBe(403);
    expect((await leader.post('/api/parties/kick', { user_id: b.id })).status).toBe(200);
    expect((await b.get('/api/parties/me')).body.party).toBeNull();
    expect((await leader.post('/api/parties/leave')).status).toBe(200);
    expect((await a.get('/api/parties/me')).body.party).toMatchObject({ leader_id: a.id });
    expect((await a.post('/api/parties/disband')).status).toBe(200);
    expect((await a.get('/api/parties/me')).body.party).toBeNull();
    expect((await a.post('/api/parties/leave')).status).toBe(403);
  });

  it('party-join seats the whole party at once, or nobody (409)', async () => {
    const members = await party(3);
    const host = await player();
    const created = await host.post('/api/lobbies', {});
    const code = created.body.code;
    expect((await members[1].post(`/api/lobbies/${code}/party-join`)).status).toBe(403);
    expect((await members[0].post(`/api/lobbies/${code}/party-join`)).status).toBe(200);
    expect((await lobbyAt(server.url, code)).pool.map((u) => u.id)).toEqual([host.id, ...members.map((m) => m.id)]);

    const others = await party(2);
    const elsewhere = await (await player()).post('/api/lobbies', {});
    await others[1].command(elsewhere.body.code, 'join');
    expect((await others[0].post(`/api/lobbies/${code}/party-join`)).status).toBe(409);
    expect((await lobbyAt(server.url, code)).pool).toHaveLength(4);
  });
});
