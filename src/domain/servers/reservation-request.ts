import { conflict, fail, invalid, paymentRequired, succeed, type Outcome } from '../domain-error';

export type Tier = 'free' | 'premium';

/** Tier limits (docs/design/CONTRACT.md "Game server reservations"). */
export const TIER_LIMITS: Record<Tier, { maxMinutes: number; defaultMinutes: number; idleMinutes: number }> = {
  free: { maxMinutes: 120, defaultMinutes: 120, idleMinutes: 45 },
  premium: { maxMinutes: 600, defaultMinutes: 180, idleMinutes: 240 },
};

export const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 60 * 60_000;
const MINUTE = 60_000;

export interface ReservationRequest {
  tier: Tier;
  durationMinutes?: number;
  /** Absent: starts now. */
  startsAt?: number;
}

export interface RequesterFacts {
  premiumActive: boolean;
}

export interface ReservationWindow {
  tier: Tier;
  startsAt: number;
  endsAt: number;
  scheduled: boolean;
}

/**
 * Whether a reservation may be made and for which window: the tier's length limit, premium for
 * the premium tier and for scheduling, a schedule in the future and at most 30 days ahead.
 * Capacity and one free reservation at a time are decided where the bookings are locked
 * (ReservationRepository.create), since they depend on what other requests booked meanwhile.
 */
export function decideReservation(request: ReservationRequest, facts: RequesterFacts, now: number): Outcome<ReservationWindow, never> {
  const limits = TIER_LIMITS[request.tier];
  const minutes = request.durationMinutes ?? limits.defaultMinutes;
  if (!Number.isInteger(minutes) || minutes < 1) return fail(invalid('duration_minutes must be a positive integer'));
  if (minutes > limits.maxMinutes) return fail(invalid(`duration_minutes is at most ${limits.maxMinutes} for the ${request.tier} tier`));
  if (request.tier === 'premium' && !facts.premiumActive) return fail(paymentRequired('the premium tier requires an active premium membership'));
  const scheduled = request.startsAt !== undefined;
  if (scheduled) {
    if (!facts.premiumActive) return fail(paymentRequired('scheduling requires an active premium membership'));
    if (request.startsAt! <= now) return fail(invalid('starts_at must be in the future'));
    if (request.startsAt! - now > MAX_SCHEDULE_AHEAD_MS) return fail(invalid('starts_at is at most 30 days ahead'));
  }
  const startsAt = request.startsAt ?? now;
  return succeed({ tier: request.tier, startsAt, endsAt: startsAt + minutes * MINUTE, scheduled });
}

/** A plugin extension: the new end, or 409 when it would pass the tier's maximum length. */
export function decideExtension(reservation: { tier: Tier; startsAt: number; endsAt: number }, minutes: number): Outcome<{ endsAt: number }, never> {
  const endsAt = reservation.endsAt + minutes * MINUTE;
  if (endsAt - reservation.startsAt > TIER_LIMITS[reservation.tier].maxMinutes * MINUTE) {
    return fail(conflict(`the ${reservation.tier} tier allows at most ${TIER_LIMITS[reservation.tier].maxMinutes} minutes`));
  }
  return succeed({ endsAt });
}
