import type { RouteContract } from '../route-contract';
import { opsRoutes } from './ops-routes';
import { publicRoutes } from './public-routes';
import { authRoutes } from './auth-routes';
import { keysRoutes } from './keys-routes';
import { usersRoutes } from './users-routes';
import { lobbyCommandRoutes, lobbyRoutes } from './lobby-routes';
import { partyRoutes } from './party-routes';
import { pointsRoutes } from './points-routes';
import { serversRoutes } from './servers-routes';
import { serverPluginRoutes } from './server-plugin-routes';
import { lobbyServerRoutes } from './lobby-server-routes';
import { adminRoutes } from './admin-routes';
import { mapsRoutes } from './maps-routes';
import { premiumRoutes } from './premium-routes';
import { notificationsRoutes } from './notifications-routes';
import { communityRoutes } from './community-routes';
import { teamsRoutes } from './teams-routes';
import { approvalsRoutes } from './approvals-routes';
import { observabilityRoutes } from './observability-routes';
import { tournamentsRoutes } from './tournaments-routes';
import { devLoginRoutes } from './dev-login-routes';
import { cupsRoutes } from './cups-routes';

/** Every route the server registers; the OpenAPI document is built from this list. */
export const allRoutes: RouteContract[] = [
  ...Object.values(opsRoutes),
  ...Object.values(publicRoutes),
  ...Object.values(authRoutes),
  ...Object.values(devLoginRoutes),
  ...Object.values(usersRoutes),
  ...Object.values(keysRoutes),
  ...Object.values(lobbyRoutes),
  ...Object.values(lobbyCommandRoutes),
  ...Object.values(partyRoutes),
  ...Object.values(serversRoutes),
  ...Object.values(serverPluginRoutes),
  ...Object.values(lobbyServerRoutes),
  ...Object.values(adminRoutes),
  ...Object.values(mapsRoutes),
  ...Object.values(premiumRoutes),
  ...Object.values(pointsRoutes),
  ...Object.values(notificationsRoutes),
  ...Object.values(communityRoutes),
  ...Object.values(teamsRoutes),
  ...Object.values(approvalsRoutes),
  ...Object.values(observabilityRoutes),
  ...Object.values(tournamentsRoutes),
  ...Object.values(cupsRoutes),
];
