import { describe, expect, it } from 'vitest';
import { isBanned } from '../../../src/domain/access/ban';

const NOW = 1_700_000_000_000;

describe('whether a ban holds', () => {
  it.each([
    ['no ban at all', null, false],
    ['a permanent ban', { startsAt: NOW - 5000, expiresAt: null, liftedAt: null }, true],
    ['a ban that expires later', { startsAt: NOW - 5000, expiresAt: NOW + 1, liftedAt: null }, true],
    ['a ban that expires right now', { startsAt: NOW - 5000, expiresAt: NOW, liftedAt: null }, false],
    ['a ban that expired earlier', { startsAt: NOW - 5000, expiresAt: NOW - 1, liftedAt: null }, false],
    ['a permanent ban that was lifted', { startsAt: NOW - 5000, expiresAt: null, liftedAt: NOW - 1 }, false],
    ['a ban lifted right now', { startsAt: NOW - 5000, expiresAt: null, liftedAt: NOW }, false],
    ['a timed ban lifted before it expired', { startsAt: NOW - 5000, expiresAt: NOW + 1000, liftedAt: NOW - 1 }, false],
    ['a ban given right now', { startsAt: NOW, expiresAt: null, liftedAt: null }, true],
    ['a ban whose start is still ahead', { startsAt: NOW + 1, expiresAt: null, liftedAt: null }, false],
  ])('%s: banned is %s', (_, ban, banned) => {
    expect(isBanned(ban, NOW)).toBe(banned);
  });
});
