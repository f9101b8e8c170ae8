import { Router } from 'express';
import type { MapEntry } from '../../schema/maps';
import { mapsRoutes } from '../../schema/routes/maps-routes';
import type { MapRecord } from '../../src/db/map-repository';
import { userOf, type Caller } from '../../src/identity/caller';
import type { MapLibrary } from '../../src/maps/map-library';
import { bindRoute, type Authenticate } from '../route-binder';

/** Only settled maps reach the wire: size and hash are known once a map is active. */
export function toMapEntry(map: MapRecord): MapEntry {
  return {
    id: map.id,
    name: map.name,
    display_name: map.displayName,
    size_bytes: map.sizeBytes ?? 0,
    sha256: map.sha256 ?? '',
    uploader_id: map.uploaderId,
    status: map.status,
    created_at: map.createdAt.toISOString(),
  };
}

/** The maps routes express serves; POST /api/maps/upload is native (map-upload-route.ts). */
export function mapsRouter(library: MapLibrary, authenticate: Authenticate<Caller>): Router {
  const router = Router();
  bindRoute(router, mapsRoutes.list, authenticate, async () => (await library.list()).map(toMapEntry));
  bindRoute(router, mapsRoutes.names, authenticate, () => library.displayNames());
  bindRoute(router, mapsRoutes.canUpload, authenticate, async ({ caller }) => ({ allowed: await library.mayUpload(userOf(caller)) }));
  bindRoute(router, mapsRoutes.delete, authenticate, async ({ params, caller }) => {
    const user = userOf(caller);
    await library.delete({ userId: user.id, isAdmin: user.isAdmin }, params.id);
  });
  return router;
}
