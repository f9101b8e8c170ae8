import { describe, expect, it } from 'vitest';
import { peakConcurrency } from '../../../src/domain/servers/region-capacity';
import { decideExtension, decideReservation } from '../../../src/domain/servers/reservation-request';
import { chosenMap, logStatusAt } from '../../../src/domain/servers/match-setup';

const MIN = 60_000;
const now = Date.UTC(2026, 0, 1);

describe('reservation rules', () => {
  it('count only bookings that run at the same moment, a booking ending as another starts not overlapping', () => {
    const bookings = [{ startsAt: 0, endsAt: 60 }, { startsAt: 60, endsAt: 120 }, { startsAt: 30, endsAt: 90 }];
    expect(peakConcurrency(bookings, 0, 120)).toBe(2);
    expect(peakConcurrency(bookings, 100, 200)).toBe(1);
    expect(peakConcurrency(bookings, 200, 300)).toBe(0);
  });

  it('give a free reservation 120 minutes by default and refuse more', () => {
    const made = decideReservation({ tier: 'free' }, { premiumActive: false }, now);
    expect(made).toMatchObject({ ok: true, state: { startsAt: now, endsAt: now + 120 * MIN, scheduled: false } });
    expect(decideReservation({ tier: 'free', durationMinutes: 121 }, { premiumActive: true }, now)).toMatchObject({ ok: false, error: { kind: 'invalid' } });
  });

  it('ask payment for the premium tier and for a schedule without premium', () => {
    expect(decideReservation({ tier: 'premium' }, { premiumActive: false }, now)).toMatchObject({ ok: false, error: { kind: 'payment_required' } });
    expect(decideReservation({ tier: 'free', startsAt: now + MIN }, { premiumActive: false }, now)).toMatchObject({ ok: false, error: { kind: 'payment_required' } });
  });

  it('schedule only in the future and at most 30 days ahead', () => {
    const premium = { premiumActive: true };
    expect(decideReservation({ tier: 'premium', startsAt: now }, premium, now).ok).toBe(false);
    expect(decideReservation({ tier: 'premium', startsAt: now + 30 * 24 * 60 * MIN }, premium, now).ok).toBe(true);
    expect(decideReservation({ tier: 'premium', startsAt: now + 30 * 24 * 60 * MIN + 1 }, premium, now).ok).toBe(false);
  });

  it('extend up to the tier maximum and refuse with a conflict beyond it', () => {
    const r = { tier: 'free' as const, startsAt: now, endsAt: now + 100 * MIN };
    expect(decideExtension(r, 20)).toMatchObject({ ok: true, state: { endsAt: now + 120 * MIN } });
    expect(decideExtension(r, 21)).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  });

  it('play the most voted map, the pool order breaking ties', () => {
    expect(chosenMap({ map_pool: ['a', 'b', 'c'], votes: { a: 1, b: 2, c: 2 } })).toBe('b');
    expect(chosenMap({ map_pool: ['a', 'b'], votes: { a: 0, b: 0 } })).toBe('a');
  });

  it('call an upload failed ten minutes after it began without a log', () => {
    expect(logStatusAt({ status: 'uploading', uploadingAt: now }, now + 10 * MIN - 1)).toBe('uploading');
    expect(logStatusAt({ status: 'uploading', uploadingAt: now }, now + 10 * MIN)).toBe('failed');
    expect(logStatusAt({ status: 'ready', uploadingAt: now }, now + 60 * MIN)).toBe('ready');
  });
});
