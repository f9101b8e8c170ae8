import { describe, expect, it } from 'vitest';
import { myVote, voteCounts } from '../../../src/domain/lobby/lobby-view';
import { actor, expectRefused, gatheringLobby, HOST, liveLobby, OUTSIDER, POOLED, readyCheckLobby, run, SEATED } from './lobby-fixtures';

describe('vote-map', () => {
  it('records the caller\'s vote', () => {
    expect(myVote(run(gatheringLobby(), { type: 'vote-map', map: 'cp_sunshine' }, POOLED), POOLED)).toBe('cp_sunshine');
  });

  it('replaces the caller\'s previous vote', () => {
    let s = run(gatheringLobby(), { type: 'vote-map', map: 'cp_sunshine' }, POOLED);
    s = run(s, { type: 'vote-map', map: 'cp_process_final' }, POOLED);
    expect(voteCounts(s)).toMatchObject({ cp_sunshine: 0, cp_process_final: 1 });
  });

  it('for the same map again succeeds with no change', () => {
    const voted = run(gatheringLobby(), { type: 'vote-map', map: 'cp_sunshine' }, POOLED);
    expect(run(voted, { type: 'vote-map', map: 'cp_sunshine' }, POOLED)).toBe(voted);
  });

  it('is open to seated players too', () => {
    expect(myVote(run(gatheringLobby(), { type: 'vote-map', map: 'cp_sunshine' }, SEATED), SEATED)).toBe('cp_sunshine');
  });

  it('is open during the ready check', () => {
    expect(myVote(run(readyCheckLobby(), { type: 'vote-map', map: 'cp_sunshine' }, HOST), HOST)).toBe('cp_sunshine');
  });

  it('by someone not in the lobby is forbidden', () => {
    expectRefused(gatheringLobby(), { type: 'vote-map', map: 'cp_sunshine' }, actor(OUTSIDER), 'forbidden');
  });

  it('for a map outside the lobby\'s pool is 400', () => {
    expectRefused(gatheringLobby(), { type: 'vote-map', map: 'pl_upward_f12' }, POOLED, 'invalid');
  });

  it('for an empty map name is 400', () => {
    expectRefused(gatheringLobby(), { type: 'vote-map', map: '' }, POOLED, 'invalid');
  });

  it('once the match is live is a conflict', () => {
    expectRefused(liveLobby(), { type: 'vote-map', map: 'cp_sunshine' }, POOLED, 'conflict');
  });

  it('counts one vote per member', () => {
    let s = run(gatheringLobby(), { type: 'vote-map', map: 'cp_sunshine' }, POOLED);
    s = run(s, { type: 'vote-map', map: 'cp_sunshine' }, SEATED);
    s = run(s, { type: 'vote-map', map: 'cp_gullywash_f9' }, HOST);
    expect(voteCounts(s)).toEqual({ cp_process_final: 0, cp_gullywash_f9: 1, cp_sunshine: 2, koth_product_final: 0, cp_granary_pro_rc16f: 0 });
  });
});
