import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { lobbyDetail, lobbySummary, myVote, voteCounts } from '../../../src/domain/lobby/lobby-view';
import { LobbyDetail, LobbySummary } from '../../../src/domain/lobby/lobby-wire';
import {
  BLU_CAP, draftingLobby, endedLobby, gatheringLobby, HOST, liveLobby, newLobby, POOLED, profile, readyCheckLobby,
  RED_CAP, run, SEATED, T0,
} from './lobby-fixtures';

const iso = (ms: number) => new Date(ms).toISOString();

describe('lobby detail', () => {
  it('matches the LobbyDetail schema in every phase', () => {
    for (const s of [gatheringLobby(), draftingLobby(), readyCheckLobby(), liveLobby(), endedLobby()]) {
      expect(v.safeParse(LobbyDetail, lobbyDetail(s, T0)).issues).toBeUndefined();
    }
  });

  it('carries the snake_case identity fields', () => {
    const d = lobbyDetail(gatheringLobby(), T0);
    expect([d.code, d.format, d.phase, d.host_id, d.version]).toEqual(['AB12', '6v6', 'gathering', HOST, gatheringLobby().version]);
    expect(d.captains).toEqual({ red: RED_CAP, blu: BLU_CAP });
  });

  it('shows the occupant of each slot as a public user and empty slots as null', () => {
    const d = lobbyDetail(gatheringLobby(), T0);
    expect(d.teams.red[0]).toEqual({ index: 0, class: 'scout', user: profile(SEATED), ready: false, ready_until: null });
    expect(d.teams.blu[5]).toEqual({ index: 5, class: 'medic', user: null, ready: false, ready_until: null });
  });

  it('shows the pool as public users in join order', () => {
    const d = lobbyDetail(gatheringLobby(), T0);
    expect(d.pool.slice(0, 2)).toEqual([profile(HOST), profile(POOLED)]);
  });

  it('derives ready from the flag and the moment asked', () => {
    const s = run(readyCheckLobby(), { type: 'ready' }, SEATED, T0);
    expect(lobbyDetail(s, T0 + 29_999).teams.red[0]).toMatchObject({ ready: true, ready_until: iso(T0 + 30_000) });
    expect(lobbyDetail(s, T0 + 30_000).teams.red[0]).toMatchObject({ ready: false, ready_until: null });
  });

  it('lists every map of the pool in the votes, zeros included', () => {
    const d = lobbyDetail(newLobby({ format: 'ultiduo' }), T0);
    expect(d.votes).toEqual({ ultiduo_baloo_v2: 0, ultiduo_lookout_b1: 0 });
  });

  it('shows whose turn it is during the draft', () => {
    expect(lobbyDetail(draftingLobby(), T0).turn).toBe('red');
  });

  it('shows no turn outside the draft', () => {
    expect(lobbyDetail(readyCheckLobby(), T0).turn).toBeNull();
  });

  it('gives the ready check deadline as an ISO time', () => {
    expect(lobbyDetail(readyCheckLobby(), T0).ready_check_deadline).toBe(iso(T0 + 60_000));
  });

  it('gives times as ISO strings and nulls where unset', () => {
    const d = lobbyDetail(gatheringLobby(), T0);
    expect([d.created_at, d.started_at, d.ended_at, d.ready_check_deadline]).toEqual([iso(T0), null, null, null]);
  });

  it('shows the scores and match id once reported and recorded', () => {
    const s = run(endedLobby(), { type: 'record-match', matchId: 9 }, HOST);
    const d = lobbyDetail(s, T0);
    expect([d.score_red, d.score_blu, d.match_id]).toEqual([3, 2, 9]);
  });

  it('passes region and reservation through', () => {
    const d = lobbyDetail(newLobby({ region: 'eu', reservationId: 4 }), T0);
    expect([d.region, d.reservation_id]).toEqual(['eu', 4]);
  });

  it('is plain JSON', () => {
    const d = lobbyDetail(readyCheckLobby(), T0);
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
  });
});

describe('lobby summary', () => {
  it('matches the LobbySummary schema', () => {
    expect(v.safeParse(LobbySummary, lobbySummary(draftingLobby())).issues).toBeUndefined();
  });

  it('counts players, filled slots and total slots', () => {
    const s = gatheringLobby();
    expect(lobbySummary(s)).toMatchObject({ players: s.pool.length + 3, slots_filled: 3, slots_total: 12 });
  });

  it('counts 4 slots for ultiduo', () => {
    expect(lobbySummary(newLobby({ format: 'ultiduo' })).slots_total).toBe(4);
  });

  it('carries the list fields', () => {
    expect(lobbySummary(newLobby({ name: 'Mix', region: 'na' }))).toMatchObject({
      code: 'AB12', name: 'Mix', format: '6v6', phase: 'gathering', host_id: HOST, region: 'na', created_at: iso(T0),
    });
  });
});

describe('votes', () => {
  it('counts nothing before anyone votes', () => {
    expect(Object.values(voteCounts(gatheringLobby())).every((n) => n === 0)).toBe(true);
  });

  it('gives a member\'s own vote, or null', () => {
    const s = run(gatheringLobby(), { type: 'vote-map', map: 'cp_sunshine' }, POOLED);
    expect([myVote(s, POOLED), myVote(s, SEATED)]).toEqual(['cp_sunshine', null]);
  });
});
