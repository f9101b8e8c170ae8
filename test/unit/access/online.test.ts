import { describe, expect, it } from 'vitest';
import { isOnline, ONLINE_WINDOW_MS, onlineSince } from '../../../src/domain/access/online';

const NOW = 1_700_000_000_000;

describe('who counts as online', () => {
  it('uses a five minute window', () => {
    expect(ONLINE_WINDOW_MS).toBe(300_000);
  });

  it('counts from five minutes before now', () => {
    expect(onlineSince(NOW)).toBe(NOW - 300_000);
  });

  it.each([
    ['seen just now', NOW, true],
    ['seen exactly five minutes ago', NOW - 300_000, true],
    ['seen a moment more than five minutes ago', NOW - 300_001, false],
    ['never seen', null, false],
  ])('a user %s is online: %s', (_, lastSeenAt, online) => {
    expect(isOnline(lastSeenAt, NOW)).toBe(online);
  });
});
