import type { ReservationStatus } from '../domain/servers/reservation-status';
import type { Tier } from '../domain/servers/reservation-request';

/** A server_reservations row, camelCased, with times as epoch milliseconds. */
export interface ReservationRecord {
  id: number;
  ownerId: number;
  tier: Tier;
  status: ReservationStatus;
  region: string;
  map: string;
  configPreset: string;
  rconPassword: string;
  serverPassword: string | null;
  startsAt: number;
  endsAt: number;
  createdAt: number;
  endedAt: number | null;
  lobbyCode: string | null;
  connectAddress: string | null;
  rconAddress: string | null;
  providerRef: string | null;
  provisionAttempts: number;
  provisioningSince: number | null;
  lastPlayersAt: number | null;
  warnedAt: number | null;
}

const ms = (value: unknown): number => new Date(value as string | Date).getTime();
const msOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : ms(value));

export function toReservationRecord(row: Record<string, unknown>): ReservationRecord {
  return {
    id: Number(row.id),
    ownerId: Number(row.owner_id),
    tier: row.tier as Tier,
    status: row.status as ReservationStatus,
    region: String(row.region),
    map: String(row.map),
    configPreset: String(row.config_preset),
    rconPassword: String(row.rcon_password),
    serverPassword: (row.server_password as string | null) ?? null,
    startsAt: ms(row.starts_at),
    endsAt: ms(row.ends_at),
    createdAt: ms(row.created_at),
    endedAt: msOrNull(row.ended_at),
    lobbyCode: (row.lobby_code as string | null) ?? null,
    connectAddress: (row.connect_address as string | null) ?? null,
    rconAddress: (row.rcon_address as string | null) ?? null,
    providerRef: (row.provider_ref as string | null) ?? null,
    provisionAttempts: Number(row.provision_attempts ?? 0),
    provisioningSince: msOrNull(row.provisioning_since),
    lastPlayersAt: msOrNull(row.last_players_at),
    warnedAt: msOrNull(row.warned_at),
  };
}
