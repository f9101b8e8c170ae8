import { AdminAudit } from './admin-audit';
import { Announcement } from './announcement';
import { ApiKey } from './api-key';
import { ApiKeyAudit } from './api-key-audit';
import { Ban } from './ban';
import { ChangelogEntry } from './changelog-entry';
import { LobbyRecord } from './lobby-record';
import { Match } from './match';
import { MatchPlayer } from './match-player';
import { PointBalance } from './point-balance';
import { PointRedemption } from './point-redemption';
import { PointReward } from './point-reward';
import { PointTransaction } from './point-transaction';
import { PremiumGrant } from './premium-grant';
import { User } from './user';

export { AdminAudit, Announcement, ApiKey, ApiKeyAudit, Ban, ChangelogEntry, LobbyRecord, Match, MatchPlayer, PointBalance, PointRedemption, PointReward, PointTransaction, PremiumGrant, User };

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
  PointBalance,
  PointReward,
  PointRedemption,
  PointTransaction,
  AdminAudit,
] as const;
