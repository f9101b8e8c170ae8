export interface Booking {
  startsAt: number;
  endsAt: number;
}

/**
 * The most bookings running at one moment inside [from, to): a region is full for a new booking
 * when this reaches its capacity. Counting every overlapping booking would refuse two that
 * follow one another; the sweep counts only the ones that really run together.
 */
export function peakConcurrency(bookings: readonly Booking[], from: number, to: number): number {
  const inside = bookings.filter((b) => b.startsAt < to && b.endsAt > from);
  const events: Array<[number, number]> = [];
  for (const b of inside) {
    events.push([Math.max(b.startsAt, from), 1]);
    events.push([Math.min(b.endsAt, to), -1]);
  }
  // Ends before starts at the same instant: a booking ending at t frees its slot for one at t.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let running = 0;
  let peak = 0;
  for (const [, delta] of events) {
    running += delta;
    peak = Math.max(peak, running);
  }
  return peak;
}

export const hasRoom = (bookings: readonly Booking[], window: Booking, capacity: number): boolean =>
  peakConcurrency(bookings, window.startsAt, window.endsAt) < capacity;
