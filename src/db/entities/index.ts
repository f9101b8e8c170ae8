import { AdminAudit } from './admin-audit';
import { Announcement } from './announcement';
import { ApiKey } from './api-key';
import { ApiKeyAudit } from './api-key-audit';
import { Ban } from './ban';
import { ChangelogEntry } from './changelog-entry';
import { LobbyRecord } from './lobby-record';
import { Match } from './match';
import { MatchPlayer } from './match-player';
import { PremiumGrant } from './premium-grant';
import { RatingAdjustment } from './rating-adjustment';
import { User } from './user';

export { AdminAudit, Announcement, ApiKey, ApiKeyAudit, Ban, ChangelogEntry, LobbyRecord, Match, MatchPlayer, PremiumGrant, RatingAdjustment, User };

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
  AdminAudit,
  RatingAdjustment,
] as const;
