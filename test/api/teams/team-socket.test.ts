import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeAllClients, connect, nextEvent, recordEvents, request } from '../../realtime/support/socket-client';
import { call } from '../identity/identity-fixtures';
import { startTeamsWorld, teamOf, type TeamsWorld } from './team-fixtures';

/** `team:subscribe` and `team:update` over a real socket.io client. */
let world: TeamsWorld;
beforeAll(async () => {
  world = await startTeamsWorld();
}, 60_000);
afterEach(() => closeAllClients());
afterAll(async () => world?.close());

describe('a team room', () => {
  it('acks the team as GET /api/teams/{id} answers it', async () => {
    const leader = await world.player();
    const team = await teamOf(leader);
    const socket = await connect(world.server.url, { cookie: leader.cookie });
    const ack = await request<{ team: unknown }>(socket, 'team:subscribe', { id: team.id });
    expect(ack).toEqual({ team: (await leader.get(`/api/teams/${team.id}`)).body });
  });

  it('pushes roster changes in version order, ending at the state a read answers', async () => {
    const [leader, a, b] = [await world.player(), await world.player(), await world.player()];
    const team = await teamOf(leader, [a]);
    const socket = await connect(world.server.url, { cookie: leader.cookie });
    const { team: snapshot } = await request<{ team: { version: number } }>(socket, 'team:subscribe', { id: team.id });
    const updates = recordEvents(socket, 'team:update');
    const invite = await leader.post(`/api/teams/${team.id}/invites`, { user_id: b.id });
    await b.post(`/api/teams/invites/${invite.body.id}/accept`);
    await leader.post(`/api/teams/${team.id}/roles`, { user_id: b.id, role: 'captain' });
    const finalVersion = snapshot.version + 3;
    const kicked = nextEvent(socket, 'team:update', (u) => u.version === finalVersion);
    await leader.post(`/api/teams/${team.id}/kick`, { user_id: a.id });
    const last = await kicked;
    const versions = updates.map((u) => u.version);
    expect(versions).toEqual([...versions].sort((x, y) => x - y));
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions[0]).toBeGreaterThan(snapshot.version);
    expect(last).toEqual({ id: team.id, version: finalVersion, team: (await leader.get(`/api/teams/${team.id}`)).body });
  });

  it('pushes a change an admin approved', async () => {
    const [leader, member] = [await world.player(), await world.player()];
    const team = await teamOf(leader, [member]);
    await world.enter(team.id, 77_001, { locked: true });
    const socket = await connect(world.server.url, { cookie: leader.cookie });
    await request(socket, 'team:subscribe', { id: team.id });
    const asked = await member.post(`/api/teams/${team.id}/leave`);
    const update = nextEvent(socket, 'team:update');
    await call(world.server, `/api/admin/approvals/${asked.body.approval_id}/approve`, { method: 'POST', bearer: world.adminKey, body: {} });
    expect((await update).team.members.map((m) => m.user.id)).toEqual([leader.id]);
  });

  it('answers 404 for an unknown team and 400 for a malformed payload', async () => {
    const socket = await connect(world.server.url, { cookie: (await world.player()).cookie });
    expect(await request(socket, 'team:subscribe', { id: 99_999_999 })).toEqual({ error: 'no such team', status: 404 });
    expect(await request(socket, 'team:subscribe', { id: 'x' })).toMatchObject({ status: 400 });
  });
});
