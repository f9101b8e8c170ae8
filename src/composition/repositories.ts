import { AdminAuditRepository } from '../db/admin-audit-repository';
import { ApiKeyRepository } from '../db/api-key-repository';
import { ApprovalRepository } from '../db/approval-repository';
import { AuditRepository } from '../db/audit-repository';
import { BanRepository } from '../db/ban-repository';
import { LiveEpochRepository } from '../db/live-epoch-repository';
import { MapRepository } from '../db/map-repository';
import { OpenIdNonceRepository } from '../db/openid-nonce-repository';
import type { EmSource } from '../db/orm';
import { PointsRepository } from '../db/points-repository';
import { PremiumOrderRepository } from '../db/premium-order-repository';
import { PremiumRepository } from '../db/premium-repository';
import { PublicReadRepository } from '../db/public-read-repository';
import { TeamInviteRepository } from '../db/team-invite-repository';
import { TeamRepository } from '../db/team-repository';
import { TournamentRepository } from '../db/tournament-repository';
import { CupRepository } from '../db/cup-repository';
import { UsersRepository } from '../db/users-repository';
import { LobbyLogRepository } from '../servers/lobby-log-repository';
import { ReservationRepository } from '../servers/reservation-repository';

/**
 * Every repository more than one area reads, or that an area module receives, built once over the
 * database: a ban, a premium grant or a reservation is read through one object whichever area asks.
 * Repositories that need an area's own settings (lobby records, matches) and those only one
 * assembly uses are built in that assembly.
 */
export function createRepositories(db: EmSource) {
  return {
    users: new UsersRepository(db),
    publicReads: new PublicReadRepository(db),
    points: new PointsRepository(db),
    bans: new BanRepository(db),
    premium: new PremiumRepository(db),
    premiumOrders: new PremiumOrderRepository(db),
    apiKeys: new ApiKeyRepository(db),
    keyAudit: new AuditRepository(db),
    openIdNonces: new OpenIdNonceRepository(db),
    adminAudit: new AdminAuditRepository(db),
    maps: new MapRepository(db),
    reservations: new ReservationRepository(db),
    lobbyLogs: new LobbyLogRepository(db),
    liveEpochs: new LiveEpochRepository(db),
    teams: new TeamRepository(db),
    teamInvites: new TeamInviteRepository(db),
    approvals: new ApprovalRepository(db),
    tournaments: new TournamentRepository(db),
    cups: new CupRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
