import { conflict, fail, forbidden, invalid, succeed, type Outcome } from '../domain-error';
import { DEFAULT_FORMAT, DEFAULT_MAP_POOLS, FORMAT_SLOTS, KNOWN_MAPS, LOBBY_FORMATS, MAP_POOL_MAX, MAP_POOL_MIN, type LobbyFormat } from './formats';
import type { Actor } from './lobby-actor';
import type { LobbyEvent } from './lobby-events';
import { memberKey, type LobbyState, type Slot } from './lobby-state';

export const LOBBY_NAME_MAX = 64;

export type CreateLobbyInput = {
  /** Chosen by the engine (unique among lobbies). */
  code: string;
  name?: string;
  format?: LobbyFormat;
  mapPool?: string[];
  region?: string | null;
  /** Already checked by the engine to be one of the caller's reservations. */
  reservationId?: number | null;
};

export type CreateLobbyOptions = {
  /** Maps a custom pool may use; defaults to every format's default maps. The engine may pass the active map list. */
  knownMaps?: readonly string[];
};

const emptyTeam = (format: LobbyFormat): Slot[] =>
  FORMAT_SLOTS[format].map((cls, index) => ({ index, class: cls, userId: null, readyUntil: null }));

function checkMapPool(pool: unknown, known: readonly string[]): string | null {
  if (!Array.isArray(pool)) return 'map_pool must be a list of map names';
  if (pool.length < MAP_POOL_MIN || pool.length > MAP_POOL_MAX) return `map_pool must hold ${MAP_POOL_MIN} to ${MAP_POOL_MAX} maps`;
  if (new Set(pool).size !== pool.length) return 'map_pool names must be distinct';
  const unknown = pool.find((m) => typeof m !== 'string' || !known.includes(m));
  return unknown === undefined ? null : `unknown map: ${String(unknown)}`;
}

/**
 * A new lobby in `gathering`, version 1, with the host as its first free agent (so the
 * one-open-lobby rule applies to the host as to anyone).
 */
export function createLobby(
  input: CreateLobbyInput,
  actor: Actor,
  now: number,
  options: CreateLobbyOptions = {},
): Outcome<LobbyState, LobbyEvent> {
  if (typeof input.code !== 'string' || input.code.length === 0) return fail(invalid('code is required'));
  const format = input.format ?? DEFAULT_FORMAT;
  if (!LOBBY_FORMATS.includes(format)) return fail(invalid('unknown format'));
  const name = input.name === undefined ? `${actor.profile.username}'s ${format}`.slice(0, LOBBY_NAME_MAX) : input.name.trim();
  if (name.length === 0 || name.length > LOBBY_NAME_MAX) return fail(invalid(`name must be 1 to ${LOBBY_NAME_MAX} characters`));
  if (input.mapPool !== undefined) {
    const problem = checkMapPool(input.mapPool, options.knownMaps ?? KNOWN_MAPS);
    if (problem) return fail(invalid(problem));
  }
  const reservationId = input.reservationId ?? null;
  if (reservationId !== null && (!Number.isSafeInteger(reservationId) || reservationId <= 0)) {
    return fail(invalid('reservation_id must be a positive integer'));
  }
  if (actor.banned) return fail(forbidden('you are banned'));
  if (actor.currentLobby !== null) return fail(conflict('already in another lobby'));

  const state: LobbyState = {
    code: input.code,
    name,
    format,
    phase: 'gathering',
    hostId: actor.id,
    createdAt: now,
    region: input.region ?? null,
    reservationId,
    captains: { red: null, blu: null },
    teams: { red: emptyTeam(format), blu: emptyTeam(format) },
    pool: [actor.id],
    mapPool: [...(input.mapPool ?? DEFAULT_MAP_POOLS[format])],
    votes: {},
    picks: [],
    readyCheckDeadline: null,
    startedAt: null,
    endedAt: null,
    scoreRed: null,
    scoreBlu: null,
    matchId: null,
    profiles: { [memberKey(actor.id)]: actor.profile },
    version: 1,
  };
  return succeed(state, [
    { type: 'lobby_created', code: state.code, hostId: actor.id },
    { type: 'members_changed', joined: [actor.id], left: [] },
  ]);
}
