import type { DoorRoutes } from '../door/door-routes';
import { installBodySizeGuard } from '../../host/body-size-guard';
import type { UwsApp } from '../../host/uws-host';
import { installLobbyPageRoutes } from '../../realtime/lobby-page-routes';
import { mountRestApp } from '../../rest/rest-app';
import { adminRouter } from '../../rest/routes/admin-routes';
import { docsRouter } from '../../rest/routes/docs-routes';
import { identityRouters } from '../../rest/routes/identity-routers';
import { installLobbyCommandRoutes, lobbyRouter } from '../../rest/routes/lobby-routes';
import { lobbyServerRouter } from '../../rest/routes/lobby-server-routes';
import { installMapUploadRoute } from '../../rest/routes/map-upload-route';
import { mapsRouter } from '../../rest/routes/maps-routes';
import { opsRouter } from '../../rest/routes/ops-routes';
import { partyRouter } from '../../rest/routes/party-routes';
import { pointsRouter } from '../../rest/routes/points-routes';
import { premiumRouter } from '../../rest/routes/premium-routes';
import { installRawPublicRoutes, publicRouter } from '../../rest/routes/public-routes';
import { serversRouter } from '../../rest/routes/servers-routes';
import { buildOpenApiDocument } from '../../schema/openapi';
import { allRoutes } from '../../schema/routes';
import type { Config } from '../config/config';
import type { Database } from '../db/orm';
import type { Presence } from '../identity/presence';
import { pointsShop } from '../identity/profile-shop';
import type { LiveStore } from '../live/live-store';
import type { PremiumService } from '../premium/premium-service';
import type { PublicReads } from '../public-reads/public-reads';
import type { assembleAdmin } from './admin';
import { assembleDevLogin } from './dev-login';
import type { ClientLogsPart } from './observability';
import type { DoorAssembly } from './door';
import type { Identity } from './identity';
import type { LobbyCommands } from './lobby-commands';
import type { LobbyServices } from './lobbies';
import type { MapsArea } from './maps';
import type { Repositories } from './repositories';
import type { ServerServices } from './servers';

/** The areas whose routes the doors serve; areas assembled with their own router hand it in `routers`. */
export interface RoutedAreas {
  config: Config;
  db: Database;
  live: LiveStore;
  repos: Pick<Repositories, 'users' | 'points'>;
  clock: () => number;
  door: DoorAssembly;
  identity: Identity;
  presence: Presence;
  publicReads: PublicReads;
  maps: MapsArea;
  lobbies: LobbyServices;
  commands: LobbyCommands;
  servers: ServerServices;
  admin: ReturnType<typeof assembleAdmin>;
  premium: PremiumService;
  clientLogs: ClientLogsPart;
  /** Routers of the areas assembled whole (notifications, community, teams, approvals, client logs, tournaments...), mounted in this order. */
  routers: DoorRoutes[];
  /** Serve the hot public reads from native uWS routes (default); off only to measure the difference. */
  rawPublicRoutes?: boolean;
}

/**
 * Every route, at its door: the native uWS routes first (the streamed upload and the hot paths,
 * before the 1 MB body guard), then the express app. Each door adapts the one exchange
 * (src/door/exchange.ts). Anonymous routes still refuse a key in the URL (401), as every route does.
 */
export function installRoutes(uws: UwsApp, areas: RoutedAreas): void {
  const { config, door, identity, lobbies, commands, repos } = areas;
  const { authenticate } = identity;
  const recent = identity.authenticator.authenticateRecent;
  // A purchase moved a balance: the leaderboards drop it on every instance.
  const pointsChanged = () => lobbies.invalidate('points');
  const shop = pointsShop(repos.points, config.points.customAvatarCost, pointsChanged);
  const identityRoutes = identityRouters({ identity, config, users: repos.users, presence: areas.presence, clock: areas.clock, shop });

  installLobbyPageRoutes(uws, door);
  installMapUploadRoute(uws, { ...door, library: areas.maps.library, authenticate });
  installLobbyCommandRoutes(uws, commands.lobbies, { ...door, authenticate: recent }, commands.gate);
  areas.clientLogs.install(uws, { ...door, authenticate });
  installBodySizeGuard(uws, door);
  if (areas.rawPublicRoutes !== false) installRawPublicRoutes(uws, areas.publicReads, { ...door, authenticate });
  mountRestApp(uws, {
    door,
    routers: [
      opsRouter({ database: () => areas.db.ready(), liveStore: () => areas.live.get('readyz').then(() => true, () => false) }, authenticate),
      docsRouter(() => buildOpenApiDocument(allRoutes, config.publicUrl)),
      publicRouter(areas.publicReads, authenticate),
      ...identityRoutes.routers,
      assembleDevLogin({ config, users: repos.users, sessions: identity.sessions, clock: areas.clock }),
      // Lobby commands are the hot path: their session user's row may be up to half a second old.
      lobbyRouter(commands.lobbies, recent, commands.gate),
      partyRouter(lobbies.parties, authenticate),
      pointsRouter({ authenticate, points: repos.points, cache: areas.publicReads.cache, invalidate: pointsChanged }),
      serversRouter(areas.maps.catalog, areas.servers.reservations, authenticate),
      mapsRouter(areas.maps.library, authenticate),
      lobbyServerRouter(areas.servers.lobbyServer, areas.servers.plugins, authenticate),
      adminRouter({ authenticate, users: repos.users, ...areas.admin }),
      premiumRouter(areas.premium, authenticate),
      ...areas.routers,
      // Keep last: GET /api/users/:platformId would shadow later /api/users/<name> paths.
      identityRoutes.last,
    ],
  });
}
