import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/** A game server reservation; `status` mirrors the newest row of its status log. */
export const ServerReservation = defineEntity({
  name: 'ServerReservation',
  tableName: 'server_reservations',
  properties: {
    id: p.integer().primary(),
    owner: () => p.manyToOne(User).mapToPk(),
    tier: p.string().length(16),
    status: p.string().length(16),
    region: p.string().length(32),
    map: p.string().length(64),
    configPreset: p.string().length(32),
    rconPassword: p.string().length(64),
    serverPassword: p.string().length(64).nullable(),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    createdAt: p.datetime().defaultRaw('now()'),
    endedAt: p.datetime().nullable(),
    lobbyCode: p.string().length(16).nullable(),
    connectAddress: p.string().length(128).nullable(),
    rconAddress: p.string().length(128).nullable(),
    providerRef: p.string().length(128).nullable(),
    provisionAttempts: p.integer().default(0),
    provisioningSince: p.datetime().nullable(),
    lastPlayersAt: p.datetime().nullable(),
    warnedAt: p.datetime().nullable(),
  },
  indexes: [
    { name: 'server_reservations_owner_id_status_index', properties: ['owner', 'status'] },
    { name: 'server_reservations_region_status_index', properties: ['region', 'status'] },
  ],
});
export type ServerReservationEntity = InferEntity<typeof ServerReservation>;

/** Append-only: one row per status change, never updated. */
export const ServerStatusLog = defineEntity({
  name: 'ServerStatusLog',
  tableName: 'server_status_log',
  properties: {
    id: p.integer().primary(),
    reservation: () => p.manyToOne(ServerReservation).mapToPk().index('server_status_log_reservation_id_index'),
    status: p.string().length(16),
    reason: p.text().nullable(),
    at: p.datetime(),
  },
});

/** One RCON command run through the site, with what the server answered. */
export const ServerRconAudit = defineEntity({
  name: 'ServerRconAudit',
  tableName: 'server_rcon_audit',
  properties: {
    id: p.integer().primary(),
    reservation: () => p.manyToOne(ServerReservation).mapToPk().index('server_rcon_audit_reservation_id_index'),
    lobbyCode: p.string().length(16).nullable(),
    user: () => p.manyToOne(User).mapToPk(),
    command: p.text(),
    output: p.text().nullable(),
    outcome: p.string().length(16),
    at: p.datetime(),
  },
});

/** The match log of a lobby played on a reserved server. */
export const LobbyServerLog = defineEntity({
  name: 'LobbyServerLog',
  tableName: 'lobby_server_logs',
  properties: {
    lobbyCode: p.string().length(16).primary(),
    reservationId: p.integer(),
    status: p.string().length(16),
    logUrl: p.text().nullable(),
    demoUrl: p.text().nullable(),
    uploadingAt: p.datetime().nullable(),
    updatedAt: p.datetime(),
  },
});
