import type { Repositories } from './repositories';
import type { Database } from '../db/orm';
import type { UserRecord } from '../db/user-record';
import { BanAdmin } from '../admin/ban-admin';
import { LobbyAdmin, type LobbyAdminDeps } from '../admin/lobby-admin';
import { RatingAdmin } from '../admin/rating-admin';
import { SiteContentAdmin, type SiteContentDeps } from '../admin/site-content-admin';

export interface AdminInput {
  db: Pick<Database, 'em'>;
  users: { findById(id: number): Promise<UserRecord | null> };
  repos: Pick<Repositories, 'adminAudit' | 'bans'>;
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
export function assembleAdmin(input: AdminInput) {
  const { db, clock, invalidate } = input;
  const audit = input.repos.adminAudit;
  const lobbies = new LobbyAdmin({ db, lobbies: input.lobbies, reservations: input.reservations });
  return {
    audit,
    lobbies,
    bans: new BanAdmin({
      db, clock, bans: input.repos.bans, users: input.users,
      removeFromLobby: (caller, userId, reason) => lobbies.removeBanned(caller, userId, reason),
      bansChanged: input.bansChanged,
    }),
    ratings: new RatingAdmin({ db, invalidate, clock }),
    content: new SiteContentAdmin({ db, invalidate, clock, outbox: input.outbox }),
  };
}
