import { expect, it } from 'vitest';
import { partyMemberKey } from '../../src/engine/live-keys';
import { ANONYMOUS } from '../../src/identity/caller';
import { callerOf, describeEngine, type EngineWorld } from './engine-harness';

async function partyOf(w: EngineWorld, size: number) {
  const users = await w.users(size);
  const [leader, ...others] = users;
  const { code } = await w.parties.create(callerOf(leader), 'mix');
  for (const user of others) {
    await w.parties.invite(callerOf(leader), user.platformId);
    const { received_invites } = await w.parties.me(callerOf(user));
    await w.parties.accept(callerOf(user), received_invites[0].id);
  }
  return { code, leader, users };
}

describeEngine('party engine', (world) => {
  it('answers no party for an anonymous caller or a user without one', async () => {
    const w = world();
    const [a] = await w.users(1);
    expect(await w.parties.me(ANONYMOUS)).toEqual({ party: null, received_invites: [] });
    expect(await w.parties.me(callerOf(a))).toEqual({ party: null, received_invites: [] });
  });

  it('makes the creator leader and sole member of a party with a six-symbol code', async () => {
    const w = world();
    const [a] = await w.users(1);
    const { code } = await w.parties.create(callerOf(a), null);
    const { party } = await w.parties.me(callerOf(a));
    expect(code).toMatch(/^[A-Z2-9]{6}$/);
    expect(party).toMatchObject({ code, leader_id: a.id, members: [{ id: a.id }], invites: [] });
  });

  it('refuses a second party to one user (409) and a party to a banned user (403)', async () => {
    const w = world();
    const [a, banned] = await w.users(2);
    await w.parties.create(callerOf(a), null);
    await expect(w.parties.create(callerOf(a), null)).rejects.toMatchObject({ kind: 'conflict' });
    await w.bans.create({ userId: banned.id, reason: 'x', createdBy: null, at: new Date(w.clock.now - 1), expiresAt: null });
    await expect(w.parties.create(callerOf(banned), null)).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('shows an invite to the leader and to the invitee, who joins by accepting it', async () => {
    const w = world();
    const [leader, friend] = await w.users(2);
    await w.parties.create(callerOf(leader), null);
    await w.parties.invite(callerOf(leader), friend.platformId);
    const mine = await w.parties.me(callerOf(leader));
    expect(mine.party?.invites).toEqual([{ id: expect.any(Number), to_platform_id: friend.platformId, from_user_id: leader.id }]);
    const theirs = await w.parties.me(callerOf(friend));
    expect(theirs.received_invites).toEqual([
      { id: mine.party!.invites[0].id, party_id: mine.party!.id, party_code: mine.party!.code, from_user_id: leader.id },
    ]);
    await w.parties.accept(callerOf(friend), theirs.received_invites[0].id);
    const after = await w.parties.me(callerOf(friend));
    expect(after.party?.members.map((m) => m.id)).toEqual([leader.id, friend.id]);
    expect(after.received_invites).toEqual([]);
  });

  it('answers 404 for inviting an unknown platform id and for answering an unknown invite', async () => {
    const w = world();
    const [leader] = await w.users(1);
    await w.parties.create(callerOf(leader), null);
    await expect(w.parties.invite(callerOf(leader), '76561190000000000')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(w.parties.accept(callerOf(leader), 999)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(w.parties.decline(callerOf(leader), 999)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('drops a declined invite', async () => {
    const w = world();
    const [leader, friend] = await w.users(2);
    await w.parties.create(callerOf(leader), null);
    await w.parties.invite(callerOf(leader), friend.platformId);
    const { received_invites } = await w.parties.me(callerOf(friend));
    await w.parties.decline(callerOf(friend), received_invites[0].id);
    expect((await w.parties.me(callerOf(leader))).party?.invites).toEqual([]);
    expect((await w.parties.me(callerOf(friend))).received_invites).toEqual([]);
  });

  it('refuses an invite from a member who is not the leader (403)', async () => {
    const w = world();
    const { users } = await partyOf(w, 2);
    const [outsider] = await w.users(1);
    await expect(w.parties.invite(callerOf(users[1]), outsider.platformId)).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('passes the lead to the longest-standing member when the leader leaves', async () => {
    const w = world();
    const { leader, users } = await partyOf(w, 3);
    await w.parties.leave(callerOf(leader));
    expect((await w.parties.me(callerOf(users[1]))).party).toMatchObject({ leader_id: users[1].id });
    expect((await w.parties.me(callerOf(leader))).party).toBeNull();
    expect(await w.live.get(partyMemberKey(leader.id))).toBeNull();
  });

  it('lets the leader kick a member, who is then free to create a party', async () => {
    const w = world();
    const { leader, users } = await partyOf(w, 2);
    await w.parties.kick(callerOf(leader), users[1].id);
    expect((await w.parties.me(callerOf(leader))).party?.members.map((m) => m.id)).toEqual([leader.id]);
    await w.parties.create(callerOf(users[1]), null);
  });

  it('disbands for everyone, and only at the leader’s word', async () => {
    const w = world();
    const { leader, users } = await partyOf(w, 3);
    await expect(w.parties.disband(callerOf(users[2]))).rejects.toMatchObject({ kind: 'forbidden' });
    await w.parties.disband(callerOf(leader));
    for (const user of users) expect((await w.parties.me(callerOf(user))).party).toBeNull();
  });

  it('lets two invitees accepting at once both in, with no lost member', async () => {
    const w = world();
    const [leader, ...friends] = await w.users(5);
    await w.parties.create(callerOf(leader), null);
    for (const friend of friends) await w.parties.invite(callerOf(leader), friend.platformId);
    await Promise.all(
      friends.map(async (friend) => {
        const { received_invites } = await w.parties.me(callerOf(friend));
        await w.parties.accept(callerOf(friend), received_invites[0].id);
      }),
    );
    expect((await w.parties.me(callerOf(leader))).party?.members).toHaveLength(5);
  });
});

describeEngine('party join', (world) => {
  it('seats the whole party in the pool at once and cancels its pending invites', async () => {
    const w = world();
    const { leader, users } = await partyOf(w, 3);
    const [host, invitee] = await w.users(2);
    await w.parties.invite(callerOf(leader), invitee.platformId);
    const { code } = await w.engine.create(callerOf(host), {});
    await w.engine.partyJoin(code, callerOf(leader));
    const lobby = await w.engine.detail(code);
    expect(lobby!.pool.map((u) => u.id)).toEqual([host.id, ...users.map((u) => u.id)]);
    expect(lobby!.version).toBe(2);
    expect((await w.parties.me(callerOf(leader))).party?.invites).toEqual([]);
  });

  it('keeps everybody out when one member is already in another lobby (409)', async () => {
    const w = world();
    const { leader, users } = await partyOf(w, 3);
    const [host, otherHost] = await w.users(2);
    const { code } = await w.engine.create(callerOf(host), {});
    const other = await w.engine.create(callerOf(otherHost), {});
    await w.engine.command(other.code, { type: 'join' }, callerOf(users[2]));
    await expect(w.engine.partyJoin(code, callerOf(leader))).rejects.toMatchObject({ kind: 'conflict' });
    expect((await w.engine.detail(code))!.pool.map((u) => u.id)).toEqual([host.id]);
  });

  it('refuses a caller without a party (409) and a member who is not the leader (403)', async () => {
    const w = world();
    const { users } = await partyOf(w, 2);
    const [host, loner] = await w.users(2);
    const { code } = await w.engine.create(callerOf(host), {});
    await expect(w.engine.partyJoin(code, callerOf(loner))).rejects.toMatchObject({ kind: 'conflict' });
    await expect(w.engine.partyJoin(code, callerOf(users[1]))).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('keeps a party racing a member’s own join all-or-nothing', async () => {
    const w = world();
    const { leader, users } = await partyOf(w, 3);
    const [hostA, hostB] = await w.users(2);
    const a = await w.engine.create(callerOf(hostA), {});
    const b = await w.engine.create(callerOf(hostB), {});
    await Promise.allSettled([w.engine.partyJoin(a.code, callerOf(leader)), w.peer().command(b.code, { type: 'join' }, callerOf(users[1]))]);
    const inA = (await w.engine.detail(a.code))!.pool.map((u) => u.id);
    const inB = (await w.engine.detail(b.code))!.pool.map((u) => u.id);
    const partyInA = users.filter((u) => inA.includes(u.id)).length;
    expect([0, 3]).toContain(partyInA);
    expect(inB.includes(users[1].id)).toBe(partyInA === 0);
  });
});
