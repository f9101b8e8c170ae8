import { machineTime } from './machine-time';

/**
 * How much later than asked a timeout may fire and still be believed. A timer that fires later
 * than this says the event loop itself was blocked (a large upload copied in one piece, a long
 * garbage collection): the answer being waited for may have arrived meanwhile and sit unread in
 * the socket, which the loop reads only after its timers. Such a timeout is this process's stall,
 * not the other system's silence, and must not mark that system unavailable.
 */
export const LATE_TIMER_MS = 100;

/** A wait of at most `boundMs` begun at `startedAt` (machineTime.elapsed) whose timeout fired late. */
export function firedLate(startedAt: number, boundMs: number, now: number = machineTime.elapsed()): boolean {
  return now - startedAt - boundMs > LATE_TIMER_MS;
}
