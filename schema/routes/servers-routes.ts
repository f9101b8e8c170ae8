import * as v from 'valibot';
import { defineRoute } from '../route-contract';
import { RegionCapacity, RegionStats, RegionWithStats, ReservationIdParams, ServerCreateBody, ServerReservation, ServerScheduleBody } from '../servers';

const tag = 'Servers';
const userOrKey: ['session', 'premium'] = ['session', 'premium'];

export const serversRoutes = {
  maps: defineRoute({
    operationId: 'listServerMaps', method: 'get', path: '/api/servers/maps', tag, auth: [],
    summary: 'Maps valid for provisioning a server and for a lobby map pool (built-in and active uploaded maps)',
    success: { status: 200, schema: v.array(v.string()) }, errors: [],
  }),
  regions: defineRoute({
    operationId: 'listServerRegions', method: 'get', path: '/api/servers/regions', tag, auth: [],
    summary: 'Cloud regions with how many servers each could start now',
    success: { status: 200, schema: v.array(RegionWithStats) }, errors: [],
  }),
  regionStats: defineRoute({
    operationId: 'serverRegionStats', method: 'get', path: '/api/servers/region-stats', tag, auth: [],
    summary: 'Free-tier availability per region (free and premium reservations share one capacity)',
    success: { status: 200, schema: RegionStats }, errors: [],
  }),
  capacity: defineRoute({
    operationId: 'serverCapacity', method: 'get', path: '/api/servers/capacity', tag, auth: [],
    summary: 'Servers each region could start now',
    success: { status: 200, schema: RegionCapacity }, errors: [],
  }),
  mine: defineRoute({
    operationId: 'listMyServers', method: 'get', path: '/api/servers/mine', tag, auth: ['session'],
    summary: "The caller's running reservations and those finished in the last day",
    success: { status: 200, schema: v.array(ServerReservation) }, errors: [401, 403],
  }),
  scheduledMine: defineRoute({
    operationId: 'listMyScheduledServers', method: 'get', path: '/api/servers/scheduled/mine', tag, auth: userOrKey,
    summary: "The caller's pending (scheduled) reservations",
    success: { status: 200, schema: v.array(ServerReservation) }, errors: [401, 403],
  }),
  list: defineRoute({
    operationId: 'listServers', method: 'get', path: '/api/servers', tag, auth: userOrKey,
    summary: "The caller's reservations, newest first",
    success: { status: 200, schema: v.array(ServerReservation) }, errors: [401, 403],
  }),
  create: defineRoute({
    operationId: 'createServer', method: 'post', path: '/api/servers', tag, auth: userOrKey, body: ServerCreateBody,
    summary: 'Reserves a server now: free (at most 120 minutes, one at a time) or premium (up to 600 minutes)',
    success: { status: 201, schema: ServerReservation }, errors: [400, 401, 402, 403, 409],
  }),
  schedule: defineRoute({
    operationId: 'scheduleServer', method: 'post', path: '/api/servers/schedule', tag, auth: ['premium'], body: ServerScheduleBody,
    summary: 'Reserves a server from starts_at (in the future, at most 30 days ahead); premium key only',
    success: { status: 201, schema: ServerReservation }, errors: [400, 401, 402, 403, 409],
  }),
  cancelScheduled: defineRoute({
    operationId: 'cancelScheduledServer', method: 'delete', path: '/api/servers/scheduled/:id', tag, auth: userOrKey, params: ReservationIdParams,
    summary: 'The owner cancels a pending reservation', success: { status: 204 }, errors: [401, 403, 404],
  }),
  get: defineRoute({
    operationId: 'getServer', method: 'get', path: '/api/servers/:id', tag, auth: userOrKey, params: ReservationIdParams,
    summary: 'A reservation with its connect address and RCON password; owner or admin',
    success: { status: 200, schema: ServerReservation }, errors: [401, 403, 404],
  }),
  destroy: defineRoute({
    operationId: 'destroyServer', method: 'delete', path: '/api/servers/:id', tag, auth: userOrKey, params: ReservationIdParams,
    summary: 'Destroys the server at once; owner or admin; 409 when it has already ended',
    success: { status: 204 }, errors: [401, 403, 404, 409],
  }),
};
