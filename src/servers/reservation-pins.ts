import { conflict, forbidden, notFound } from '../domain/domain-error';
import type { ReservationPins } from '../engine/lobby-engine';
import type { ReservationRepository } from './reservation-repository';

/**
 * Lobbies pin themselves to one of their host's pending or running reservations. A reservation
 * may serve one lobby after another; the latest pinned lobby is the one its plugin serves.
 */
export function reservationPins(repo: ReservationRepository): ReservationPins {
  return {
    async checkPinnable(userId, reservationId) {
      const record = await repo.byId(reservationId);
      if (!record) throw notFound('reservation not found');
      if (record.ownerId !== userId) throw forbidden('that reservation is not yours');
      if (!['pending', 'provisioning', 'active'].includes(record.status)) throw conflict(`the reservation is ${record.status}`);
    },
    async pinned(reservationId, code) {
      await repo.setLobby(reservationId, code);
    },
  };
}
