import * as v from 'valibot';
import { CanUploadMaps, MapEntry, MapIdParams, MapUploadBody } from '../maps';
import { defineRoute } from '../route-contract';

const tag = 'Maps';

export const mapsRoutes = {
  list: defineRoute({
    operationId: 'listMaps', method: 'get', path: '/api/maps/', tag, auth: [],
    description:
      'The active uploaded maps, newest first, with their uploader and file details. Anyone may call it.',
    summary: 'Active uploaded maps, newest first',
    success: { status: 200, schema: v.array(MapEntry) }, errors: [],
  }),
  names: defineRoute({
    operationId: 'listMapDisplayNames', method: 'get', path: '/api/maps/names', tag, auth: [],
    description:
      'Only the display names of the active uploaded maps. Anyone may call it.',
    summary: 'Display names of the active uploaded maps',
    success: { status: 200, schema: v.array(v.string()) }, errors: [],
  }),
  canUpload: defineRoute({
    operationId: 'canUploadMaps', method: 'get', path: '/api/maps/can-upload', tag, auth: ['session'],
    description:
      'Whether the logged-in caller may upload maps: true for members with active premium and for admins. 401 without a session.',
    summary: 'Whether the caller may upload maps: true for active premium members and admins',
    success: { status: 200, schema: CanUploadMaps }, errors: [401],
  }),
  /**
   * Served by a native uWS route that streams the body (rest/routes/map-upload-route.ts): express
   * would buffer it whole. Declared here all the same, so OpenAPI shows it like every other route.
   */
  upload: defineRoute({
    operationId: 'uploadMap', method: 'post', path: '/api/maps/upload', tag, auth: ['session', 'premium'],
    description:
      'Uploads a Source map as multipart/form-data, streamed and checked (VBSP header, BSP version 19 or 20, lumps inside the file) as it arrives; premium members and admins only (403 otherwise). 400 for a bad file or name, 413 beyond 95 MiB, 409 when a map of that name or the same content is already active.',
    bodyExample: { file: '<the .bsp file: koth_example_b3.bsp>', display_name: 'Example B3' },
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
    description:
      'Deletes an uploaded map: it leaves the list and the map catalog at once and its file is removed. The uploader or an admin only (403 otherwise); 404 for a map that is unknown or already deleted.',
    summary: 'Deletes a map (the uploader or an admin): it leaves the list and the map catalog at once, and its file is removed',
    params: MapIdParams, success: { status: 204 }, errors: [401, 403, 404],
  }),
};
