import { Router } from 'express';
import { serversRoutes } from '../../schema/routes/servers-routes';
import type { MapCatalog } from '../../src/maps/map-catalog';
import { bindRoute, type Authenticate } from '../route-binder';

export function serversRouter(maps: MapCatalog, authenticate: Authenticate<unknown>): Router {
  const router = Router();
  bindRoute(router, serversRoutes.maps, authenticate, () => maps.names());
  return router;
}
