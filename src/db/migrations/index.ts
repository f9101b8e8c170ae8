import type { MigrationObject } from '@mikro-orm/core';
import { InitialSchema } from './initial-schema';
import { AdminSchema } from './0008-admin';
import { LiveEpochSchema } from './0003-live-epoch';
import { GameServers } from './0004-game-servers';
import { MapsSchema } from './0005-maps';
import { PointsSchema } from './0007-points';
import { CommunitySchema } from './0012-community';
import { ClientLogsSchema } from './0013-client-logs';
import { TournamentsSchema } from './0010-tournaments';
import { PremiumOrdersAndGiftCodes } from './0006-premium-orders-and-gift-codes';
import { NotificationsSchema } from './0014-notifications';
import { TeamsAndApprovals } from './0009-teams-and-approvals';
import { CupsSchema } from './0015-cups';
import { CupFinalRosters } from './0016-cup-final-rosters';
import { CupFeeChecks } from './0017-cup-fee-checks';
import { PostApprovedAt } from './0018-post-approved-at';

/**
 * Every migration in order, listed by hand: file discovery is not used (it breaks on Node 20).
 * The name is what the migrations table records; never rename one that has shipped.
 */
export const migrations: MigrationObject[] = [
  { name: '0001_initial_schema', class: InitialSchema },
  { name: '0003_live_epoch', class: LiveEpochSchema },
  { name: '0004_game_servers', class: GameServers },
  { name: '0005_maps', class: MapsSchema },
  { name: '0006_premium_orders_and_gift_codes', class: PremiumOrdersAndGiftCodes },
  { name: '0007_points', class: PointsSchema },
  { name: '0008_admin', class: AdminSchema },
  { name: '0009_teams_and_approvals', class: TeamsAndApprovals },
  { name: '0010_tournaments', class: TournamentsSchema },
  { name: '0012_community', class: CommunitySchema },
  { name: '0013_client_logs', class: ClientLogsSchema },
  { name: '0014_notifications', class: NotificationsSchema },
  { name: '0015_cups', class: CupsSchema },
  { name: '0016_cup_final_rosters', class: CupFinalRosters },
  { name: '0017_cup_fee_checks', class: CupFeeChecks },
  { name: '0018_post_approved_at', class: PostApprovedAt },
];
