import { Router } from 'express';
import { serversRoutes } from '../../schema/routes/servers-routes';
import { userOf, type Caller } from '../../src/identity/caller';
import type { MapCatalog } from '../../src/maps/map-catalog';
import type { ReservationService } from '../../src/servers/reservation-service';
import { toReservationWire } from '../../src/servers/reservation-view';
import { bindRoute, type Authenticate } from '../route-binder';

export function serversRouter(maps: MapCatalog, reservations: ReservationService, authenticate: Authenticate<Caller>): Router {
  const router = Router();
  const r = serversRoutes;
  const viewer = (caller: Caller) => userOf(caller);
  bindRoute(router, r.maps, authenticate, () => maps.names());
  bindRoute(router, r.regions, authenticate, () => reservations.regions());
  bindRoute(router, r.regionStats, authenticate, async () => ({
    regions: (await reservations.regions()).map(({ id, name, available }) => ({ id, name, available })),
  }));
  bindRoute(router, r.capacity, authenticate, async () => ({
    regions: (await reservations.regions()).map(({ id, available }) => ({ id, available })),
  }));
  bindRoute(router, r.mine, authenticate, async ({ caller }) => (await reservations.mine(viewer(caller))).map((x) => toReservationWire(x, viewer(caller))));
  bindRoute(router, r.scheduledMine, authenticate, async ({ caller }) => (await reservations.scheduled(viewer(caller))).map((x) => toReservationWire(x, viewer(caller))));
  bindRoute(router, r.list, authenticate, async ({ caller }) => (await reservations.all(viewer(caller))).map((x) => toReservationWire(x, viewer(caller))));
  bindRoute(router, r.create, authenticate, async ({ caller, body }) => toReservationWire(await reservations.create(viewer(caller), body), viewer(caller)));
  bindRoute(router, r.schedule, authenticate, async ({ caller, body }) => toReservationWire(await reservations.schedule(viewer(caller), body), viewer(caller)));
  bindRoute(router, r.cancelScheduled, authenticate, ({ caller, params }) => reservations.cancelScheduled(viewer(caller), params.id));
  bindRoute(router, r.get, authenticate, async ({ caller, params }) => toReservationWire(await reservations.get(viewer(caller), params.id), viewer(caller)));
  bindRoute(router, r.destroy, authenticate, ({ caller, params }) => reservations.destroy(viewer(caller), params.id));
  return router;
}
