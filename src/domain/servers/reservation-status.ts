import { RESERVATION_STATUSES } from '../../../schema/server-vocabulary';

export { RESERVATION_STATUSES };
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** Statuses that hold a region slot and a user's free-tier turn. */
export const HOLDING_STATUSES: readonly ReservationStatus[] = ['pending', 'provisioning', 'active', 'ending'];

export const isFinished = (status: ReservationStatus): boolean =>
  status === 'ended' || status === 'failed' || status === 'cancelled';

const MOVES: Record<ReservationStatus, readonly ReservationStatus[]> = {
  pending: ['provisioning', 'cancelled', 'ending'],
  provisioning: ['active', 'failed', 'ending'],
  active: ['ending'],
  ending: ['ended'],
  ended: [],
  failed: [],
  cancelled: [],
};

export const canMove = (from: ReservationStatus, to: ReservationStatus): boolean => MOVES[from].includes(to);
