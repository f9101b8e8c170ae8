import { describe, expect, it } from 'vitest';
import {
  BLU_CAP, draftingLobby, expectRefused, gatheringLobby, HOST, joinAll, liveLobby, newLobby, OUTSIDER, POOLED,
  readyCheckLobby, RED_CAP, run, SEATED, slotUser, T0,
} from './lobby-fixtures';

describe('pick-slot', () => {
  it('moves a seated player to a free slot of their own team', () => {
    const s = run(gatheringLobby(), { type: 'pick-slot', team: 'red', index: 4 }, SEATED);
    expect(slotUser(s, 'red', 4)).toBe(SEATED);
    expect(slotUser(s, 'red', 0)).toBeNull();
  });

  it('lets a captain move themselves', () => {
    const s = run(gatheringLobby(), { type: 'pick-slot', team: 'red', index: 5 }, RED_CAP);
    expect(slotUser(s, 'red', 5)).toBe(RED_CAP);
  });

  it('lets a captain move a drafted teammate', () => {
    const s = run(draftingLobby(), { type: 'pick-slot', team: 'blu', index: 4, userId: 10 }, BLU_CAP);
    expect(slotUser(s, 'blu', 4)).toBe(10);
  });

  it('takes the ready flag along to the new slot', () => {
    const readied = run(draftingLobby(), { type: 'ready' }, SEATED, T0);
    const s = run(readied, { type: 'pick-slot', team: 'red', index: 5 }, SEATED, T0 + 1);
    expect(s.teams.red[5].readyUntil).toBe(T0 + 30_000);
    expect(s.teams.red[0].readyUntil).toBeNull();
  });

  it('into a taken slot is refused as slot taken', () => {
    expectRefused(gatheringLobby(), { type: 'pick-slot', team: 'red', index: 1 }, SEATED, 'conflict', /slot taken/);
  });

  it('into the slot one already holds succeeds with no change', () => {
    const before = gatheringLobby();
    expect(run(before, { type: 'pick-slot', team: 'red', index: 0 }, SEATED)).toBe(before);
  });

  it('onto the other team is forbidden', () => {
    expectRefused(gatheringLobby(), { type: 'pick-slot', team: 'blu', index: 3 }, SEATED, 'forbidden');
  });

  it('by a free agent is forbidden', () => {
    expectRefused(gatheringLobby(), { type: 'pick-slot', team: 'red', index: 3 }, POOLED, 'forbidden');
  });

  it("of a teammate by someone who is not that team's captain is forbidden", () => {
    expectRefused(draftingLobby(), { type: 'pick-slot', team: 'blu', index: 4, userId: 10 }, RED_CAP, 'forbidden');
  });

  it('of a free agent by a captain is a conflict (they must be drafted first)', () => {
    expectRefused(draftingLobby(), { type: 'pick-slot', team: 'red', index: 4, userId: POOLED }, RED_CAP, 'conflict');
  });

  it('of someone not in the lobby by a captain is 404', () => {
    expectRefused(draftingLobby(), { type: 'pick-slot', team: 'red', index: 4, userId: OUTSIDER }, RED_CAP, 'not_found');
  });

  it('of a player on the other team by a captain is a conflict', () => {
    expectRefused(draftingLobby(), { type: 'pick-slot', team: 'red', index: 4, userId: 10 }, RED_CAP, 'conflict');
  });

  it('outside the team\'s slots is 400', () => {
    expectRefused(gatheringLobby(), { type: 'pick-slot', team: 'red', index: 6 }, SEATED, 'invalid');
    expectRefused(gatheringLobby(), { type: 'pick-slot', team: 'red', index: -1 }, SEATED, 'invalid');
  });

  it('with a team that is neither red nor blu is 400', () => {
    expectRefused(gatheringLobby(), { type: 'pick-slot', team: 'green' as never, index: 0 }, SEATED, 'invalid');
  });

  it('with a fractional index is 400', () => {
    expectRefused(gatheringLobby(), { type: 'pick-slot', team: 'red', index: 1.5 }, SEATED, 'invalid');
  });

  it('during the ready check is a conflict', () => {
    expectRefused(readyCheckLobby(), { type: 'pick-slot', team: 'red', index: 0 }, RED_CAP, 'conflict');
  });
});

describe('set-class', () => {
  it('changes the class of the caller\'s slot', () => {
    const s = run(gatheringLobby(), { type: 'set-class', class: 'pyro' }, SEATED);
    expect(s.teams.red[0].class).toBe('pyro');
  });

  it('is refused as class limit reached when the team already has the limit', () => {
    // Red's medic slot is there by default; a second medic would exceed 6v6's limit of one.
    expectRefused(gatheringLobby(), { type: 'set-class', class: 'medic' }, SEATED, 'conflict', /class limit reached/);
  });

  it('counts only the caller\'s own team', () => {
    const s = run(gatheringLobby(), { type: 'set-class', class: 'pyro' }, SEATED);
    expect(run(s, { type: 'set-class', class: 'pyro' }, BLU_CAP).teams.blu[0].class).toBe('pyro');
  });

  it('allows a second scout in 6v6 once a scout slot was changed away', () => {
    let s = run(gatheringLobby(), { type: 'set-class', class: 'pyro' }, SEATED);
    s = run(s, { type: 'set-class', class: 'scout' }, RED_CAP);
    expect(s.teams.red[1].class).toBe('scout');
  });

  it('refuses a third scout in 6v6', () => {
    let s = run(gatheringLobby(), { type: 'pick-slot', team: 'red', index: 2 }, SEATED);
    s = run(s, { type: 'pick-slot', team: 'red', index: 3 }, RED_CAP);
    expectRefused(s, { type: 'set-class', class: 'scout' }, SEATED, 'conflict', /class limit reached/);
  });

  it('refuses a scout in ultiduo', () => {
    let s = joinAll(newLobby({ format: 'ultiduo' }), [RED_CAP]);
    s = run(s, { type: 'set-captain', userId: RED_CAP, team: 'red' }, HOST);
    expectRefused(s, { type: 'set-class', class: 'scout' }, RED_CAP, 'conflict', /class limit reached/);
  });

  it('to the class one already plays succeeds with no change', () => {
    const before = gatheringLobby();
    expect(run(before, { type: 'set-class', class: 'scout' }, SEATED)).toBe(before);
  });

  it('by a free agent is a conflict', () => {
    expectRefused(gatheringLobby(), { type: 'set-class', class: 'pyro' }, POOLED, 'conflict', /not in a slot/);
  });

  it('with an unknown class is 400', () => {
    expectRefused(gatheringLobby(), { type: 'set-class', class: 'civilian' as never }, SEATED, 'invalid');
  });

  it('is still allowed while live', () => {
    expect(run(liveLobby(), { type: 'set-class', class: 'spy' }, SEATED).teams.red[0].class).toBe('spy');
  });

  it('stays with the slot when its player leaves', () => {
    let s = run(gatheringLobby(), { type: 'set-class', class: 'pyro' }, SEATED);
    s = run(s, { type: 'leave' }, SEATED);
    expect(s.teams.red[0]).toEqual({ index: 0, class: 'pyro', userId: null, readyUntil: null });
  });
});
