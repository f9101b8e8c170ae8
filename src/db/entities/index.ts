import { Announcement } from './announcement';
import { ApiKey } from './api-key';
import { ApiKeyAudit } from './api-key-audit';
import { Ban } from './ban';
import { ChangelogEntry } from './changelog-entry';
import { LobbyRecord } from './lobby-record';
import { Match } from './match';
import { MatchPlayer } from './match-player';
import { GiftCode } from './gift-code';
import { PremiumGrant } from './premium-grant';
import { PremiumOrder } from './premium-order';
import { User } from './user';

export { Announcement, ApiKey, ApiKeyAudit, Ban, ChangelogEntry, LobbyRecord, Match, MatchPlayer, PremiumGrant, User, PremiumOrder, GiftCode };

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
  PremiumOrder,
  GiftCode,
] as const;
