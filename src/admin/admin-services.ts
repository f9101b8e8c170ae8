import { AdminAuditRepository } from '../db/admin-audit-repository';
import { BanRepository } from '../db/ban-repository';
import type { Database } from '../db/orm';
import type { UserRecord } from '../db/user-record';
import { BanAdmin } from './ban-admin';
import { LobbyAdmin, type LobbyAdminDeps } from './lobby-admin';
import { RatingAdmin } from './rating-admin';
import { SiteContentAdmin, type SiteContentDeps } from './site-content-admin';

export interface AdminInput {
  db: Pick<Database, 'em'>;
  users: { findById(id: number): Promise<UserRecord | null> };
  lobbies: LobbyAdminDeps['lobbies'];
  reservations: LobbyAdminDeps['reservations'];
  /** Drops a public-cache topic on every instance. */
  invalidate: (topic: string) => void;
  /** Every instance's ban list reads bans again (LobbyServices.bansChanged). */
  bansChanged: () => Promise<void>;
  clock: () => number;
  /** Where a published announcement is announced (the notifications outbox). */
  outbox?: SiteContentDeps['outbox'];
}

/** The admin area's services, sharing one audit. */
export function createAdmin(input: AdminInput) {
  const { db, clock, invalidate } = input;
  const audit = new AdminAuditRepository(db);
  const lobbies = new LobbyAdmin({ db, lobbies: input.lobbies, reservations: input.reservations });
  return {
    audit,
    lobbies,
    bans: new BanAdmin({
      db, clock, bans: new BanRepository(db), users: input.users,
      removeFromLobby: (caller, userId, reason) => lobbies.removeBanned(caller, userId, reason),
      bansChanged: input.bansChanged,
    }),
    ratings: new RatingAdmin({ db, invalidate, clock }),
    content: new SiteContentAdmin({ db, invalidate, clock, outbox: input.outbox }),
  };
}
