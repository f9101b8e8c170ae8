import * as v from 'valibot';
import { defineRoute } from '../route-contract';
import { RegionCapacity, RegionStats, RegionWithStats, ReservationIdParams, ServerCreateBody, ServerReservation, ServerScheduleBody } from '../servers';

const tag = 'Servers';
const userOrKey: ['session', 'premium'] = ['session', 'premium'];

export const serversRoutes = {
  maps: defineRoute({
    operationId: 'listServerMaps', method: 'get', path: '/api/servers/maps', tag, auth: [],
    description:
      'The map names a server reservation and a lobby map pool accept: the built-in maps and the active uploaded maps. Anyone may call it.',
    summary: 'Maps valid for provisioning a server and for a lobby map pool (built-in and active uploaded maps)',
    success: { status: 200, schema: v.array(v.string()) }, errors: [],
  }),
  regions: defineRoute({
    operationId: 'listServerRegions', method: 'get', path: '/api/servers/regions', tag, auth: [],
    description:
      'Every cloud region with its capacity and how many servers it could start now (free and premium reservations share it). Anyone may call it.',
    summary: 'Cloud regions with how many servers each could start now',
    success: { status: 200, schema: v.array(RegionWithStats) }, errors: [],
  }),
  regionStats: defineRoute({
    operationId: 'serverRegionStats', method: 'get', path: '/api/servers/region-stats', tag, auth: [],
    description:
      'Per region, its id, name and how many servers it could start now, for the free-tier picker. Anyone may call it.',
    summary: 'Free-tier availability per region (free and premium reservations share one capacity)',
    success: { status: 200, schema: RegionStats }, errors: [],
  }),
  capacity: defineRoute({
    operationId: 'serverCapacity', method: 'get', path: '/api/servers/capacity', tag, auth: [],
    description:
      'Per region id, how many servers it could start now. Anyone may call it.',
    summary: 'Servers each region could start now',
    success: { status: 200, schema: RegionCapacity }, errors: [],
  }),
  mine: defineRoute({
    operationId: 'listMyServers', method: 'get', path: '/api/servers/mine', tag, auth: ['session'],
    description:
      'The logged-in caller\'s own reservations that are running, plus those that finished in the last day. 401 without a session.',
    summary: "The caller's running reservations and those finished in the last day",
    success: { status: 200, schema: v.array(ServerReservation) }, errors: [401, 403],
  }),
  scheduledMine: defineRoute({
    operationId: 'listMyScheduledServers', method: 'get', path: '/api/servers/scheduled/mine', tag, auth: userOrKey,
    description:
      'The caller\'s reservations still pending (scheduled for later), for a session or a premium key. 401 without a credential; 403 for a premium key whose account\'s premium has lapsed.',
    summary: "The caller's pending (scheduled) reservations",
    success: { status: 200, schema: v.array(ServerReservation) }, errors: [401, 403],
  }),
  list: defineRoute({
    operationId: 'listServers', method: 'get', path: '/api/servers', tag, auth: userOrKey,
    description:
      'All of the caller\'s reservations, newest first, for a session or a premium key. 401 without a credential; 403 for a premium key whose account\'s premium has lapsed.',
    summary: "The caller's reservations, newest first",
    success: { status: 200, schema: v.array(ServerReservation) }, errors: [401, 403],
  }),
  create: defineRoute({
    operationId: 'createServer', method: 'post', path: '/api/servers', tag, auth: userOrKey, body: ServerCreateBody,
    description:
      'Reserves a game server starting now in a region with room, on a map from GET /api/servers/maps. The free tier allows at most 120 minutes and one free reservation at a time; the premium tier (up to 600 minutes) needs active premium (402 otherwise). 400 for an unknown region or map or a duration beyond the tier; 409 when the caller already has a free reservation or the region has no free server.',
    bodyExample: { region: 'fsn1', map: 'cp_process_final', config_preset: 'etf2l_6v6', rcon_password: 'rcon-secret-42', tier: 'free', duration_minutes: 90 },
    summary: 'Reserves a server now: free (at most 120 minutes, one at a time) or premium (up to 600 minutes)',
    success: { status: 201, schema: ServerReservation }, errors: [400, 401, 402, 403, 409],
  }),
  schedule: defineRoute({
    operationId: 'scheduleServer', method: 'post', path: '/api/servers/schedule', tag, auth: ['premium'], body: ServerScheduleBody,
    description:
      'Reserves a server for later, from starts_at (in the future, at most 30 days ahead, else 400); premium key only, and the account needs active premium (402 otherwise). 409 when the region has no free server for that window.',
    bodyExample: { region: 'fsn1', map: 'cp_process_final', config_preset: 'etf2l_6v6', rcon_password: 'rcon-secret-42', tier: 'premium', duration_minutes: 180, starts_at: '2026-12-05T19:00:00.000Z' },
    summary: 'Reserves a server from starts_at (in the future, at most 30 days ahead); premium key only',
    success: { status: 201, schema: ServerReservation }, errors: [400, 401, 402, 403, 409],
  }),
  cancelScheduled: defineRoute({
    operationId: 'cancelScheduledServer', method: 'delete', path: '/api/servers/scheduled/:id', tag, auth: userOrKey, params: ReservationIdParams,
    description:
      'The owner cancels one of their pending (scheduled) reservations before it starts. 404 when no pending reservation has that id (it started, ended or never existed); 403 for someone else\'s.',
    summary: 'The owner cancels a pending reservation', success: { status: 204 }, errors: [401, 403, 404],
  }),
  get: defineRoute({
    operationId: 'getServer', method: 'get', path: '/api/servers/:id', tag, auth: userOrKey, params: ReservationIdParams,
    description:
      'One reservation with its connect address and RCON password, for its owner or an admin (403 for anyone else); 404 for an unknown id.',
    summary: 'A reservation with its connect address and RCON password; owner or admin',
    success: { status: 200, schema: ServerReservation }, errors: [401, 403, 404],
  }),
  destroy: defineRoute({
    operationId: 'destroyServer', method: 'delete', path: '/api/servers/:id', tag, auth: userOrKey, params: ReservationIdParams,
    description:
      'The owner or an admin destroys the server at once and ends the reservation. 403 for someone else\'s reservation, 404 for an unknown id, 409 when it has already ended, failed or been cancelled.',
    summary: 'Destroys the server at once; owner or admin; 409 when it has already ended',
    success: { status: 204 }, errors: [401, 403, 404, 409],
  }),
};
