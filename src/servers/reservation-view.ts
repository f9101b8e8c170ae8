import type { ServerReservationWire } from '../../schema/servers';
import type { ReservationRecord } from './reservation-record';

const iso = (ms: number) => new Date(ms).toISOString();

/** Someone who may see a reservation's secrets: its owner or an admin. */
export const seesSecrets = (record: ReservationRecord, viewer: { id: number; isAdmin: boolean }): boolean =>
  viewer.isAdmin || viewer.id === record.ownerId;

/** The wire form; the RCON and server passwords only for the owner and admins. */
export function toReservationWire(record: ReservationRecord, viewer: { id: number; isAdmin: boolean }): ServerReservationWire {
  const secret = seesSecrets(record, viewer);
  return {
    id: record.id,
    owner_id: record.ownerId,
    tier: record.tier,
    status: record.status,
    region: record.region,
    map: record.map,
    config_preset: record.configPreset,
    connect_address: record.status === 'active' ? record.connectAddress : null,
    rcon_password: secret ? record.rconPassword : null,
    server_password: secret ? record.serverPassword : null,
    starts_at: iso(record.startsAt),
    ends_at: iso(record.endsAt),
    created_at: iso(record.createdAt),
    ended_at: record.endedAt === null ? null : iso(record.endedAt),
    lobby_code: record.lobbyCode,
  };
}
