import { describe, expect, it } from 'vitest';
import {
  actor, BLU_CAP, draftingLobby, expectRefused, gatheringLobby, HOST, joinAll, newLobby, OUTSIDER, POOLED,
  readyCheckLobby, RED_CAP, run, SEATED, seatedOn,
} from './lobby-fixtures';

const lobbyWith = (...ids: number[]) => joinAll(newLobby(), ids);

describe('set-captain', () => {
  it('makes a free agent captain of the free side, red first', () => {
    const s = run(lobbyWith(POOLED), { type: 'set-captain', userId: POOLED }, HOST);
    expect(s.captains).toEqual({ red: POOLED, blu: null });
  });

  it('picks blu by default once red has a captain', () => {
    let s = run(lobbyWith(RED_CAP, BLU_CAP), { type: 'set-captain', userId: RED_CAP }, HOST);
    s = run(s, { type: 'set-captain', userId: BLU_CAP }, HOST);
    expect(s.captains).toEqual({ red: RED_CAP, blu: BLU_CAP });
  });

  it('with no free side and no team given is a conflict', () => {
    expectRefused(gatheringLobby(), { type: 'set-captain', userId: POOLED }, HOST, 'conflict');
  });

  it('seats the new captain in the first free slot of the team', () => {
    const s = run(lobbyWith(POOLED), { type: 'set-captain', userId: POOLED, team: 'blu' }, HOST);
    expect(s.teams.blu[0].userId).toBe(POOLED);
    expect(s.pool).not.toContain(POOLED);
  });

  it('keeps the slot of a player already on that team', () => {
    const s = run(gatheringLobby(), { type: 'set-captain', userId: SEATED, team: 'red' }, HOST);
    expect(s.teams.red[0].userId).toBe(SEATED);
    expect(s.captains.red).toBe(SEATED);
  });

  it('leaves a replaced captain seated as a player', () => {
    const s = run(gatheringLobby(), { type: 'set-captain', userId: SEATED, team: 'red' }, HOST);
    expect(seatedOn(s, 'red')).toContain(RED_CAP);
  });

  it('moves a player seated on the other team across', () => {
    const s = run(gatheringLobby(), { type: 'set-captain', userId: SEATED, team: 'blu' }, HOST);
    expect(seatedOn(s, 'blu')).toContain(SEATED);
    expect(seatedOn(s, 'red')).not.toContain(SEATED);
  });

  it('of the captain of the other team is a conflict', () => {
    expectRefused(gatheringLobby(), { type: 'set-captain', userId: RED_CAP, team: 'blu' }, HOST, 'conflict');
  });

  it('of the current captain of that team changes nothing and succeeds', () => {
    const before = gatheringLobby();
    expect(run(before, { type: 'set-captain', userId: RED_CAP, team: 'red' }, HOST)).toBe(before);
  });

  it('onto a full team is a conflict', () => {
    let s = joinAll(newLobby({ format: 'ultiduo' }), [RED_CAP, SEATED, POOLED]);
    s = run(s, { type: 'set-captain', userId: SEATED, team: 'red' }, HOST);
    s = run(s, { type: 'set-captain', userId: RED_CAP, team: 'red' }, HOST);
    expectRefused(s, { type: 'set-captain', userId: POOLED, team: 'red' }, HOST, 'conflict', /full/);
  });

  it('is for the host only', () => {
    expectRefused(gatheringLobby(), { type: 'set-captain', userId: POOLED, team: 'blu' }, RED_CAP, 'forbidden');
  });

  it('of someone not in the lobby is 404', () => {
    expectRefused(gatheringLobby(), { type: 'set-captain', userId: OUTSIDER, team: 'blu' }, HOST, 'not_found');
  });

  it('during the draft names a replacement captain', () => {
    expect(run(draftingLobby(), { type: 'set-captain', userId: POOLED, team: 'blu' }, HOST).captains.blu).toBe(POOLED);
  });

  it('during the ready check is a conflict', () => {
    expectRefused(readyCheckLobby(), { type: 'set-captain', userId: SEATED, team: 'red' }, HOST, 'conflict');
  });

  it('refuses a team that is neither red nor blu with 400', () => {
    expectRefused(gatheringLobby(), { type: 'set-captain', userId: POOLED, team: 'green' as never }, HOST, 'invalid');
  });

  it('moving the last free agent onto the last free slot in the draft starts the ready check', () => {
    let s = joinAll(newLobby({ format: 'ultiduo' }), [RED_CAP, BLU_CAP, 10]);
    s = run(s, { type: 'set-captain', userId: RED_CAP, team: 'red' }, HOST);
    s = run(s, { type: 'set-captain', userId: BLU_CAP, team: 'blu' }, HOST);
    s = run(s, { type: 'start-draft' }, HOST);
    s = run(s, { type: 'pick', userId: 10 }, RED_CAP);
    s = run(s, { type: 'set-captain', userId: HOST, team: 'blu' }, HOST);
    expect(s.phase).toBe('ready_check');
  });
});

describe('start-draft', () => {
  const elo: Record<number, number> = { [HOST]: 1000, 10: 1200, 11: 1500, 12: 1500, 13: 900 };
  const rated = () => joinAll(newLobby(), [10, 11, 12, 13], undefined, (id) => elo[id]);

  it('moves gathering to drafting', () => {
    expect(run(gatheringLobby(), { type: 'start-draft' }, HOST).phase).toBe('drafting');
  });

  it('keeps captains the host already named', () => {
    expect(run(gatheringLobby(), { type: 'start-draft' }, HOST).captains).toEqual({ red: RED_CAP, blu: BLU_CAP });
  });

  it('fills missing captains with the highest-rated free agents, earlier joiner first on a tie', () => {
    const s = run(rated(), { type: 'start-draft' }, HOST);
    expect(s.captains).toEqual({ red: 11, blu: 12 });
  });

  it('seats the captains it names and takes them out of the pool', () => {
    const s = run(rated(), { type: 'start-draft' }, HOST);
    expect(s.teams.red[0].userId).toBe(11);
    expect(s.teams.blu[0].userId).toBe(12);
    expect(s.pool).toEqual([HOST, 10, 13]);
  });

  it('fills only the missing side', () => {
    let s = rated();
    s = run(s, { type: 'set-captain', userId: 13, team: 'blu' }, HOST);
    s = run(s, { type: 'start-draft' }, HOST);
    expect(s.captains).toEqual({ red: 11, blu: 13 });
  });

  it('with fewer players than missing captains is a conflict', () => {
    expectRefused(newLobby(), { type: 'start-draft' }, HOST, 'conflict', /need two captains/);
  });

  it('with one captain named and nobody left to captain the other side is a conflict', () => {
    const s = run(newLobby(), { type: 'set-captain', userId: HOST, team: 'red' }, HOST);
    expectRefused(s, { type: 'start-draft' }, HOST, 'conflict', /need two captains/);
  });

  it('may make the host a captain when they are the best rated', () => {
    const s = run(joinAll(newLobby({}, actor(HOST, { profile: { ...actor(HOST).profile, elo: 2000 } })), [10]), { type: 'start-draft' }, HOST);
    expect(s.captains.red).toBe(HOST);
  });

  it('is for the host only', () => {
    expectRefused(gatheringLobby(), { type: 'start-draft' }, RED_CAP, 'forbidden');
  });

  it('twice is a conflict', () => {
    expectRefused(draftingLobby(), { type: 'start-draft' }, HOST, 'conflict');
  });
});
