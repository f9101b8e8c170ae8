import { describe, expect, it } from 'vitest';
import { membershipChange, openMembers } from '../../../src/domain/lobby/lobby-membership';
import { memberKey } from '../../../src/domain/lobby/lobby-state';
import {
  actor, BLU_CAP, CODE, draftingLobby, events, expectRefused, gatheringLobby, HOST, newLobby, OUTSIDER, OUTSIDER_2,
  attempt, fillers, joinAll, POOLED, profile, readyCheckLobby, RED_CAP, run, SEATED, seatedOn, T0,
} from './lobby-fixtures';

describe('join', () => {
  it('appends the newcomer to the end of the pool', () => {
    const s = run(joinAll(newLobby(), [10, 11]), { type: 'join' }, actor(OUTSIDER));
    expect(s.pool).toEqual([HOST, 10, 11, OUTSIDER]);
  });

  it("stores the newcomer's profile", () => {
    const s = run(newLobby(), { type: 'join' }, actor(OUTSIDER, { profile: profile(OUTSIDER, 1500) }));
    expect(s.profiles[memberKey(OUTSIDER)].elo).toBe(1500);
  });

  it('is refused to a banned user with 403', () => {
    expectRefused(newLobby(), { type: 'join' }, actor(OUTSIDER, { banned: true }), 'forbidden');
  });

  it('is refused with 409 to someone already in this lobby', () => {
    expectRefused(newLobby(), { type: 'join' }, actor(HOST), 'conflict', /already in this lobby/);
  });

  it('is refused with 409 to someone in another open lobby', () => {
    expectRefused(newLobby(), { type: 'join' }, actor(OUTSIDER, { currentLobby: 'ZZ99' }), 'conflict', /another lobby/);
  });

  it('ignores an index entry that points at this very lobby', () => {
    const s = run(newLobby(), { type: 'join' }, actor(OUTSIDER, { currentLobby: CODE }));
    expect(s.pool).toContain(OUTSIDER);
  });

  it('is still possible during a draft that started short, into the pool', () => {
    let s = joinAll(newLobby(), [RED_CAP, BLU_CAP, 10]);
    s = run(s, { type: 'start-draft' }, HOST);
    expect(run(s, { type: 'join' }, actor(OUTSIDER)).pool).toContain(OUTSIDER);
  });

  it('takes the last free place of a lobby', () => {
    const s = run(joinAll(newLobby({ format: 'ultiduo' }), [10, 11]), { type: 'join' }, actor(OUTSIDER));
    expect(s.pool).toHaveLength(4);
  });

  it.each([
    ['6v6', 12],
    ['9v9', 18],
    ['4v4', 8],
    ['ultiduo', 4],
  ] as const)('on a full %s lobby (%i players) is refused with 409 and changes nothing', (format, size) => {
    const full = joinAll(newLobby({ format }), fillers(size - 1));
    expect(full.pool).toHaveLength(size);
    expectRefused(full, { type: 'join' }, actor(OUTSIDER), 'conflict', /lobby is full/);
  });

  it('counts seated players and free agents alike', () => {
    expectRefused(draftingLobby(), { type: 'join' }, actor(OUTSIDER), 'conflict', /lobby is full/);
  });

  it('during a ready check is refused: the teams are full, so the lobby is', () => {
    expectRefused(readyCheckLobby(), { type: 'join' }, actor(OUTSIDER), 'conflict', /lobby is full/);
  });

  it('finds room again when someone leaves', () => {
    const s = run(gatheringLobby(), { type: 'leave' }, POOLED);
    expect(run(s, { type: 'join' }, actor(OUTSIDER)).pool).toContain(OUTSIDER);
  });

  it('reports the newcomer as a joined member', () => {
    expect(events(newLobby(), { type: 'join' }, actor(OUTSIDER))).toEqual([{ type: 'members_changed', joined: [OUTSIDER], left: [] }]);
  });
});

describe('party-join', () => {
  const party = (...ids: number[]) => ids.map((id) => actor(id));

  it('adds every member to the pool in party order', () => {
    const s = run(newLobby(), { type: 'party-join', members: party(OUTSIDER, OUTSIDER_2) }, actor(OUTSIDER));
    expect(s.pool).toEqual([HOST, OUTSIDER, OUTSIDER_2]);
  });

  it("stores every member's profile", () => {
    const s = run(newLobby(), { type: 'party-join', members: party(OUTSIDER, OUTSIDER_2) }, actor(OUTSIDER));
    expect(Object.keys(s.profiles).sort()).toEqual([HOST, OUTSIDER, OUTSIDER_2].map(memberKey).sort());
  });

  it('counts as one change', () => {
    const before = newLobby();
    expect(run(before, { type: 'party-join', members: party(OUTSIDER, OUTSIDER_2) }, actor(OUTSIDER)).version).toBe(before.version + 1);
  });

  it('is refused with 403 when any member is banned, and nobody joins', () => {
    const members = [actor(OUTSIDER), actor(OUTSIDER_2, { banned: true })];
    expectRefused(newLobby(), { type: 'party-join', members }, members[0], 'forbidden');
  });

  it('is refused with 409 when any member is already in this lobby', () => {
    const members = [actor(OUTSIDER), actor(POOLED)];
    expectRefused(gatheringLobby(), { type: 'party-join', members }, members[0], 'conflict');
  });

  it('is refused with 409 when any member is in another open lobby', () => {
    const members = [actor(OUTSIDER), actor(OUTSIDER_2, { currentLobby: 'ZZ99' })];
    expectRefused(newLobby(), { type: 'party-join', members }, members[0], 'conflict', /another lobby/);
  });

  it('is refused with 400 when the caller is not among the members', () => {
    expectRefused(newLobby(), { type: 'party-join', members: party(OUTSIDER_2) }, actor(OUTSIDER), 'invalid');
  });

  it('is refused with 400 when a member is listed twice', () => {
    expectRefused(newLobby(), { type: 'party-join', members: party(OUTSIDER, OUTSIDER) }, actor(OUTSIDER), 'invalid');
  });

  it('is refused with 400 for an empty party', () => {
    expectRefused(newLobby(), { type: 'party-join', members: [] }, actor(OUTSIDER), 'invalid');
  });

  it('fills the last free places exactly', () => {
    const s = run(joinAll(newLobby({ format: 'ultiduo' }), [10]), { type: 'party-join', members: party(OUTSIDER, OUTSIDER_2) }, actor(OUTSIDER));
    expect(s.pool).toEqual([HOST, 10, OUTSIDER, OUTSIDER_2]);
  });

  it('without room for the whole party is refused with 409, and nobody joins', () => {
    const oneFree = joinAll(newLobby({ format: 'ultiduo' }), [10, 11]);
    const out = attempt(oneFree, { type: 'party-join', members: party(OUTSIDER, OUTSIDER_2) }, actor(OUTSIDER));
    expect(out).toMatchObject({ ok: false, error: { kind: 'conflict', message: 'no room for the whole party: 1 of 2 places free' } });
  });
});

describe('leave', () => {
  it('takes a free agent out of the pool', () => {
    expect(run(gatheringLobby(), { type: 'leave' }, POOLED).pool).not.toContain(POOLED);
  });

  it('frees the slot of a seated player', () => {
    expect(seatedOn(run(gatheringLobby(), { type: 'leave' }, SEATED), 'red')).not.toContain(SEATED);
  });

  it('clears the captaincy of a leaving captain', () => {
    expect(run(gatheringLobby(), { type: 'leave' }, RED_CAP).captains.red).toBeNull();
  });

  it('removes the leaver\'s map vote', () => {
    const voted = run(gatheringLobby(), { type: 'vote-map', map: 'cp_sunshine' }, POOLED);
    expect(run(voted, { type: 'leave' }, POOLED).votes).toEqual({});
  });

  it('removes the leaver from the draft history', () => {
    const s = run(draftingLobby(), { type: 'leave' }, 10);
    expect(s.picks.some((p) => p.userId === 10)).toBe(false);
  });

  it('keeps the leaver\'s profile for history', () => {
    expect(run(gatheringLobby(), { type: 'leave' }, POOLED).profiles[memberKey(POOLED)]).toBeDefined();
  });

  it('by a seated player during the ready check returns the lobby to drafting', () => {
    const s = run(readyCheckLobby(), { type: 'leave' }, SEATED);
    expect(s.phase).toBe('drafting');
    expect(s.readyCheckDeadline).toBeNull();
  });

  it('by a seated player during the ready check clears everyone\'s ready flag', () => {
    const readied = run(readyCheckLobby(), { type: 'ready' }, RED_CAP);
    const s = run(readied, { type: 'leave' }, SEATED);
    expect([...s.teams.red, ...s.teams.blu].every((slot) => slot.readyUntil === null)).toBe(true);
  });

  it('by a free agent during the draft leaves the draft running', () => {
    expect(run(draftingLobby(), { type: 'leave' }, POOLED).phase).toBe('drafting');
  });

  it('lets the host leave while staying host', () => {
    const s = run(gatheringLobby(), { type: 'leave' }, HOST);
    expect(s.pool).not.toContain(HOST);
    expect(s.hostId).toBe(HOST);
  });

  it('is refused with 409 to someone not in the lobby', () => {
    expectRefused(gatheringLobby(), { type: 'leave' }, actor(OUTSIDER), 'conflict', /not in this lobby/);
  });

  it('reports the leaver as a member who left', () => {
    expect(events(gatheringLobby(), { type: 'leave' }, POOLED)).toEqual([{ type: 'members_changed', joined: [], left: [POOLED] }]);
  });

  it('lets the leaver join again later', () => {
    const s = run(run(gatheringLobby(), { type: 'leave' }, POOLED), { type: 'join' }, actor(POOLED));
    expect(s.pool).toContain(POOLED);
  });
});

describe('kick', () => {
  it('by the host removes a free agent from the lobby', () => {
    expect(openMembers(run(gatheringLobby(), { type: 'kick', userId: POOLED }, HOST))).not.toContain(POOLED);
  });

  it('by the host can remove a captain, clearing the captaincy', () => {
    const s = run(gatheringLobby(), { type: 'kick', userId: BLU_CAP }, HOST);
    expect(s.captains.blu).toBeNull();
    expect(openMembers(s)).not.toContain(BLU_CAP);
  });

  it('by the host of themselves is refused with 400', () => {
    expectRefused(gatheringLobby(), { type: 'kick', userId: HOST }, HOST, 'invalid');
  });

  it('by a captain removes a player seated on the opposing team', () => {
    const s = run(gatheringLobby(), { type: 'kick', userId: SEATED }, BLU_CAP);
    expect(openMembers(s)).not.toContain(SEATED);
  });

  it('by a captain of a teammate is refused as wrong team', () => {
    expectRefused(gatheringLobby(), { type: 'kick', userId: SEATED }, RED_CAP, 'forbidden', /wrong team/);
  });

  it('by a captain of a free agent is refused as wrong team', () => {
    expectRefused(gatheringLobby(), { type: 'kick', userId: POOLED }, RED_CAP, 'forbidden', /wrong team/);
  });

  it('by a captain of the opposing captain is refused with 403', () => {
    expectRefused(gatheringLobby(), { type: 'kick', userId: BLU_CAP }, RED_CAP, 'forbidden', /captain/);
  });

  it('by a plain player is refused with 403', () => {
    expectRefused(gatheringLobby(), { type: 'kick', userId: POOLED }, SEATED, 'forbidden');
  });

  it('of someone not in the lobby is 404', () => {
    expectRefused(gatheringLobby(), { type: 'kick', userId: OUTSIDER }, HOST, 'not_found');
  });

  it('of a seated player during the ready check returns the lobby to drafting', () => {
    expect(run(readyCheckLobby(), { type: 'kick', userId: SEATED }, HOST).phase).toBe('drafting');
  });

  it('announces who was kicked and by whom', () => {
    expect(events(gatheringLobby(), { type: 'kick', userId: SEATED }, BLU_CAP)).toContainEqual({ type: 'player_kicked', userId: SEATED, by: BLU_CAP });
  });

  it('refuses a user id that is not a positive integer with 400', () => {
    expectRefused(gatheringLobby(), { type: 'kick', userId: 1.5 }, HOST, 'invalid');
  });
});

describe('open members', () => {
  it('are the free agents and the seated players', () => {
    const s = gatheringLobby();
    expect(new Set(openMembers(s))).toEqual(new Set([...s.pool, ...seatedOn(s, 'red'), ...seatedOn(s, 'blu')]));
  });

  it('are nobody once the lobby is cancelled', () => {
    expect(openMembers(run(gatheringLobby(), { type: 'cancel' }, HOST, T0))).toEqual([]);
  });
});

describe('membership change', () => {
  it('names who joined and who left between two states', () => {
    const before = joinAll(newLobby(), [10, 11]);
    const after = run(joinAll(before, [12]), { type: 'leave' }, 10);
    expect(membershipChange(before, after)).toEqual({ joined: [12], left: [10] });
  });

  it('names every open member as left when the lobby closes', () => {
    const before = joinAll(newLobby(), [10, 11]);
    const closed = { ...before, phase: 'cancelled' as const };
    expect(membershipChange(before, closed)).toEqual({ joined: [], left: openMembers(before) });
  });

  it('finds nobody joined or left when a command changed neither the pool, the seats nor the phase', () => {
    const before = joinAll(newLobby(), [10, 11]);
    const voted = run(before, { type: 'vote-map', map: before.mapPool[0] }, 10);
    expect(voted).not.toBe(before);
    expect(membershipChange(before, voted)).toEqual({ joined: [], left: [] });
  });

  it('compares by content where parts are equal but not shared', () => {
    const before = joinAll(newLobby(), [10, 11]);
    const copy = structuredClone(before);
    expect(membershipChange(before, copy)).toEqual({ joined: [], left: [] });
    expect(membershipChange(before, { ...copy, pool: [...copy.pool, 99] })).toEqual({ joined: [99], left: [] });
  });
});
