import type { BanCreateBody, BanView } from '../../schema/admin';
import { AdminAuditRepository } from '../db/admin-audit-repository';
import { domainBan, type BanRecord, type BanRepository } from '../db/ban-repository';
import { isBanned } from '../domain/access/ban';
import type { Database } from '../db/orm';
import type { UserRecord } from '../db/user-record';
import { banProblem, liftProblem } from '../domain/admin/admin-rules';
import { conflict, notFound } from '../domain/domain-error';
import { userOf, type Caller } from '../identity/caller';

export interface BanAdminDeps {
  db: Pick<Database, 'em'>;
  bans: BanRepository;
  users: { findById(id: number): Promise<UserRecord | null> };
  /** Takes a newly banned user out of the open lobby they are in, if any (pushed to its watchers). */
  removeFromLobby: (caller: Caller, userId: number, reason: string) => Promise<void>;
  /** Tells every instance's ban list that bans changed (src/engine/ban-list.ts); awaited before answering. */
  bansChanged: () => Promise<void>;
  clock: () => number;
}

/**
 * Bans as an admin gives and lifts them. Every check of a ban (lobby create, join, chat, party
 * create) asks its instance's ban list, which reloads from Postgres when `bansChanged` moved the
 * live store's generation: once the admin has the answer, a ban holds on every instance, and one
 * that expires ends by itself, with nothing to clean up.
 */
export class BanAdmin {
  constructor(private readonly deps: BanAdminDeps) {}

  async ban(caller: Caller, body: BanCreateBody): Promise<BanView> {
    const { db, bans, clock } = this.deps;
    const actor = userOf(caller);
    const now = clock();
    if (!(await this.deps.users.findById(body.user_id))) throw notFound('user not found');
    const expiresAt = body.expires_at ? Date.parse(body.expires_at) : null;
    const problem = banProblem({ actorId: actor.id, userId: body.user_id, expiresAt, now });
    if (problem) throw problem;
    const ban = await db.em().transactional(async (em) => {
      const created = await bans.create(
        { userId: body.user_id, reason: body.reason, createdBy: actor.id, at: new Date(now), expiresAt: expiresAt === null ? null : new Date(expiresAt) },
        em,
      );
      const view = toBanView(created, now);
      await AdminAuditRepository.insertIn(em, { actorId: actor.id, action: 'ban.create', targetType: 'user', targetId: String(body.user_id), before: null, after: view, reason: body.reason });
      return view;
    });
    await this.deps.bansChanged();
    await this.deps.removeFromLobby(caller, body.user_id, body.reason);
    return ban;
  }

  async lift(actor: UserRecord, id: number, reason: string | null): Promise<BanView> {
    const { db, bans, clock } = this.deps;
    const now = clock();
    const lifted = await db.em().transactional(async (em) => {
      const before = await bans.findById(id, em);
      if (!before) throw notFound('ban not found');
      const problem = liftProblem(domainBan(before), now);
      if (problem) throw problem;
      // A concurrent lift that won the race leaves nothing to lift either.
      if (!(await bans.lift(id, new Date(now), em))) throw conflict('the ban is no longer in force');
      const after = toBanView({ ...before, liftedAt: new Date(now) }, now);
      await AdminAuditRepository.insertIn(em, { actorId: actor.id, action: 'ban.lift', targetType: 'user', targetId: String(before.userId), before: toBanView(before, now), after, reason });
      return after;
    });
    await this.deps.bansChanged();
    return lifted;
  }

  async page(query: { status: 'active' | 'past' | 'all'; userId?: number; limit: number; page: number }) {
    const now = this.deps.clock();
    const { bans, total } = await this.deps.bans.page({ ...query, now: new Date(now) });
    return { bans: bans.map((ban) => toBanView(ban, now)), total, page: query.page, limit: query.limit };
  }
}

export function toBanView(ban: BanRecord, now: number): BanView {
  return {
    id: ban.id,
    user_id: ban.userId,
    reason: ban.reason,
    created_by: ban.createdBy,
    created_at: ban.createdAt.toISOString(),
    expires_at: ban.expiresAt?.toISOString() ?? null,
    lifted_at: ban.liftedAt?.toISOString() ?? null,
    active: isBanned(domainBan(ban), now),
  };
}
