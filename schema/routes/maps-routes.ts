import * as v from 'valibot';
import { CanUploadMaps, MapEntry, MapIdParams, MapUploadBody } from '../maps';
import { defineRoute } from '../route-contract';

const tag = 'Maps';

export const mapsRoutes = {
  list: defineRoute({
    operationId: 'listMaps', method: 'get', path: '/api/maps/', tag, auth: [],
    summary: 'Active uploaded maps, newest first',
    success: { status: 200, schema: v.array(MapEntry) }, errors: [],
  }),
  names: defineRoute({
    operationId: 'listMapDisplayNames', method: 'get', path: '/api/maps/names', tag, auth: [],
    summary: 'Display names of the active uploaded maps',
    success: { status: 200, schema: v.array(v.string()) }, errors: [],
  }),
  canUpload: defineRoute({
    operationId: 'canUploadMaps', method: 'get', path: '/api/maps/can-upload', tag, auth: ['session'],
    summary: 'Whether the caller may upload maps: true for active premium members and admins',
    success: { status: 200, schema: CanUploadMaps }, errors: [401],
  }),
  /**
   * Served by a native uWS route that streams the body (rest/routes/map-upload-route.ts): express
   * would buffer it whole. Declared here all the same, so OpenAPI shows it like every other route.
   */
  upload: defineRoute({
    operationId: 'uploadMap', method: 'post', path: '/api/maps/upload', tag, auth: ['session', 'premium'],
    summary:
      'Uploads a .bsp (multipart/form-data: `file`, optional `display_name`), streamed: checked as a Source map ' +
      '(VBSP magic, BSP version 19 or 20, lump directory inside the file), at most 95 MiB (413 as soon as the limit is passed). ' +
      '409 when the name is already active, or when the same content is already active under another name (the message names it). ' +
      'Premium members and admins only',
    body: MapUploadBody, bodyContentType: 'multipart/form-data',
    success: { status: 201, schema: MapEntry }, errors: [400, 401, 403, 409, 413],
  }),
  delete: defineRoute({
    operationId: 'deleteMap', method: 'delete', path: '/api/maps/:id', tag, auth: ['session', 'premium'],
    summary: 'Deletes a map (the uploader or an admin): it leaves the list and the map catalog at once, and its file is removed',
    params: MapIdParams, success: { status: 204 }, errors: [401, 403, 404],
  }),
};
