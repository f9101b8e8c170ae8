// One line per entity file, here and in the list below: areas add theirs without touching others'.
import { AdminAudit } from './admin-audit';
import { Announcement } from './announcement';
import { ApiKey } from './api-key';
import { ApiKeyAudit } from './api-key-audit';
import { Ban } from './ban';
import { ChangelogEntry } from './changelog-entry';
import { LobbyRecord } from './lobby-record';
import { Match } from './match';
import { MatchPlayer } from './match-player';
import { GiftCode } from './gift-code';
import { PointBalance } from './point-balance';
import { PointRedemption } from './point-redemption';
import { PointReward } from './point-reward';
import { PointTransaction } from './point-transaction';
import { PremiumGrant } from './premium-grant';
import { PremiumOrder } from './premium-order';
import { RatingAdjustment } from './rating-adjustment';
import { LobbyServerLog, ServerRconAudit, ServerReservation, ServerStatusLog } from './server-reservation';
import { UploadedMap } from './uploaded-map';
import { User } from './user';
import { OpenIdNonce } from './openid-nonce';
import { NotificationDelivery, NotificationEvent, NotificationWebhook } from './notification';
import { CommunityCategory } from './community-category';
import { CommunityThread } from './community-thread';
import { CommunityPost } from './community-post';
import { CommunityPostEdit } from './community-post-edit';
import { CommunityReport } from './community-report';
import { Team } from './team';
import { TeamMembership } from './team-membership';
import { TeamInvite } from './team-invite';
import { Approval } from './approval';
import { ClientLog } from './client-log';
import { Tournament, TournamentEntry, TournamentMatch } from './tournament';
import { CupEntryFee, CupFinalRoster, CupPayout, CupRefund } from './cup';

export { Announcement, ApiKey, ApiKeyAudit, Ban, ChangelogEntry, LobbyRecord, Match, MatchPlayer, PremiumGrant, User };
export { LobbyServerLog, ServerRconAudit, ServerReservation, ServerStatusLog };
export { UploadedMap };
export { AdminAudit, PointBalance, PointRedemption, PointReward, PointTransaction };
export { RatingAdjustment };
export { GiftCode, PremiumOrder };
export { CommunityCategory, CommunityPost, CommunityPostEdit, CommunityReport, CommunityThread };
export { Team, TeamMembership, TeamInvite };
export { Approval };
export { ClientLog };

/** Every entity, listed by hand: folder discovery is not used (it breaks on Node 20). */
export const entities = [
  User,
  Match,
  MatchPlayer,
  ChangelogEntry,
  Announcement,
  ApiKey,
  ApiKeyAudit,
  PremiumGrant,
  Ban,
  LobbyRecord,
  ServerReservation,
  ServerStatusLog,
  ServerRconAudit,
  LobbyServerLog,
  UploadedMap,
  PointBalance,
  PointReward,
  PointRedemption,
  PointTransaction,
  AdminAudit,
  RatingAdjustment,
  OpenIdNonce,
  PremiumOrder,
  GiftCode,
  NotificationWebhook,
  NotificationEvent,
  NotificationDelivery,
  CommunityCategory,
  CommunityThread,
  CommunityPost,
  CommunityPostEdit,
  CommunityReport,
  Team,
  TeamMembership,
  TeamInvite,
  Approval,
  ClientLog,
  Tournament,
  TournamentEntry,
  TournamentMatch,
  CupEntryFee,
  CupRefund,
  CupPayout,
  CupFinalRoster,
] as const;
