import * as v from 'valibot';
import { IntegerParam, IsoDateTime } from './common';

export const MapStatus = v.picklist(['processing', 'active', 'rejected']);

/** docs/design/CONTRACT.md "Maps": an uploaded map as the API shows it. */
export const MapEntry = v.object({
  id: v.pipe(v.number(), v.integer()),
  /** The file name without `.bsp`: what lobbies and servers call the map. */
  name: v.string(),
  display_name: v.string(),
  size_bytes: v.pipe(v.number(), v.integer()),
  /** Hex SHA-256 of the file, computed while it streamed in. */
  sha256: v.string(),
  uploader_id: v.pipe(v.number(), v.integer()),
  status: MapStatus,
  created_at: IsoDateTime,
});
export type MapEntry = v.InferOutput<typeof MapEntry>;

export const DisplayName = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters'));

/** The text fields of the multipart upload (the `file` part is streamed, never parsed as a field). */
export const MapUploadFields = v.object({ display_name: v.optional(DisplayName) });

/** MapUploadBody as OpenAPI shows it: `multipart/form-data`. */
export const MapUploadBody = v.object({
  file: v.pipe(v.string(), v.description('the .bsp file; its file name must match ^[a-z0-9_]{3,64}\\.bsp$ (binary)')),
  display_name: v.optional(DisplayName),
});

export const MapIdParams = v.object({ id: IntegerParam });

export const CanUploadMaps = v.object({ allowed: v.boolean() });
