import { describe, expect, it } from 'vitest';
import { banProblem, liftProblem, windowProblem } from '../../../src/domain/admin/admin-rules';
import { openMembers } from '../../../src/domain/lobby';
import { actor, BLU_CAP, expectRefused, gatheringLobby, HOST, liveLobby, OUTSIDER, POOLED, run, SEATED } from '../lobby/lobby-fixtures';

const ADMIN = actor(OUTSIDER, { isAdmin: true });
const NOW = Date.UTC(2026, 0, 1);

describe('an admin in a lobby they neither host nor captain', () => {
  it('may kick any player, seated or in the pool (a ban takes them out)', () => {
    expect(openMembers(run(gatheringLobby(), { type: 'kick', userId: SEATED }, ADMIN))).not.toContain(SEATED);
    expect(openMembers(run(gatheringLobby(), { type: 'kick', userId: POOLED }, ADMIN))).not.toContain(POOLED);
  });

  it('may kick the host, who stays host', () => {
    const s = run(gatheringLobby(), { type: 'kick', userId: HOST }, ADMIN);
    expect(openMembers(s)).not.toContain(HOST);
    expect(s.hostId).toBe(HOST);
  });

  it('cannot kick from a live match (the banned player plays it out)', () => {
    expectRefused(liveLobby(), { type: 'kick', userId: BLU_CAP }, ADMIN, 'conflict');
  });
});

describe('ban rules', () => {
  it('refuse an expiry that is not in the future', () => {
    expect(banProblem({ actorId: 1, userId: 2, expiresAt: NOW, now: NOW })?.kind).toBe('invalid');
    expect(banProblem({ actorId: 1, userId: 2, expiresAt: NOW + 1, now: NOW })).toBeNull();
  });

  it('accept a ban without expiry', () => {
    expect(banProblem({ actorId: 1, userId: 2, expiresAt: null, now: NOW })).toBeNull();
  });

  it('refuse an admin banning themself', () => {
    expect(banProblem({ actorId: 1, userId: 1, expiresAt: null, now: NOW })?.kind).toBe('conflict');
  });

  it('let only a ban in force be lifted', () => {
    expect(liftProblem({ startsAt: NOW - 1, expiresAt: null, liftedAt: null }, NOW)).toBeNull();
    expect(liftProblem({ startsAt: NOW - 1, expiresAt: null, liftedAt: NOW - 1 }, NOW)?.kind).toBe('conflict');
    expect(liftProblem({ startsAt: NOW - 1, expiresAt: NOW, liftedAt: null }, NOW)?.kind).toBe('conflict');
  });
});

describe('announcement windows', () => {
  it('must end after they start, or never', () => {
    expect(windowProblem(NOW, NOW)?.kind).toBe('invalid');
    expect(windowProblem(NOW, NOW + 1)).toBeNull();
    expect(windowProblem(NOW, null)).toBeNull();
  });
});
