import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The last known live lobby document, kept so a lobby can be rebuilt if the live store loses it.
 * version is the live document's own version: older writes never overwrite newer ones.
 */
export const LobbyRecord = defineEntity({
  name: 'LobbyRecord',
  tableName: 'lobby_records',
  properties: {
    code: p.string().length(16).primary(),
    phase: p.string().length(16).index('lobby_records_phase_index'),
    hostId: p.integer(),
    snapshot: p.json<Record<string, unknown>>(),
    version: p.integer(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});
export type LobbyRecordEntity = InferEntity<typeof LobbyRecord>;
