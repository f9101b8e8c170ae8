import { Router } from 'express';
import { adminRoutes } from '../../schema/routes/admin-routes';
import type { BanAdmin } from '../../src/admin/ban-admin';
import type { LobbyAdmin } from '../../src/admin/lobby-admin';
import type { RatingAdmin } from '../../src/admin/rating-admin';
import type { SiteContentAdmin } from '../../src/admin/site-content-admin';
import type { AdminAuditRecord, AdminAuditRepository } from '../../src/db/admin-audit-repository';
import type { UserRecord } from '../../src/db/user-record';
import { userOf, type Caller } from '../../src/identity/caller';
import { HttpError } from '../http-error';
import { bindRoute, type Authenticate } from '../route-binder';

export interface AdminRouterDeps {
  authenticate: Authenticate<Caller>;
  bans: BanAdmin;
  ratings: RatingAdmin;
  content: SiteContentAdmin;
  lobbies: LobbyAdmin;
  audit: AdminAuditRepository;
  users: { findByPlatformId(platformId: string): Promise<UserRecord | null> };
}

/** The admin area (bans, ratings, site content, audit); the admin keys routes are in admin-keys-routes. */
export function adminRouter(deps: AdminRouterDeps): Router {
  const router = Router();
  const { authenticate, bans, ratings, content } = deps;
  const r = adminRoutes;

  bindRoute(router, r.createBan, authenticate, ({ caller, body }) => bans.ban(caller, body));
  bindRoute(router, r.listBans, authenticate, ({ query }) =>
    bans.page({ status: query.status, userId: query.user_id, limit: query.limit, page: query.page }),
  );
  bindRoute(router, r.liftBan, authenticate, ({ caller, params, body }) => bans.lift(userOf(caller), params.id, body.reason ?? null));
  bindRoute(router, r.overrideElo, authenticate, ({ caller, params, body }) => ratings.override(userOf(caller), params.id, body.elo, body.reason));

  bindRoute(router, r.listAnnouncements, authenticate, () => content.listAnnouncements());
  bindRoute(router, r.createAnnouncement, authenticate, ({ caller, body }) => content.createAnnouncement(userOf(caller), body));
  bindRoute(router, r.updateAnnouncement, authenticate, ({ caller, params, body }) => content.updateAnnouncement(userOf(caller), params.id, body));
  bindRoute(router, r.deleteAnnouncement, authenticate, ({ caller, params }) => content.deleteAnnouncement(userOf(caller), params.id));
  bindRoute(router, r.createChangelog, authenticate, ({ caller, body }) => content.createChangelog(userOf(caller), body));
  bindRoute(router, r.updateChangelog, authenticate, ({ caller, params, body }) => content.updateChangelog(userOf(caller), params.id, body));
  bindRoute(router, r.deleteChangelog, authenticate, ({ caller, params }) => content.deleteChangelog(userOf(caller), params.id));

  bindRoute(router, r.forceEndLobby, authenticate, ({ caller, params, body }) => deps.lobbies.forceEnd(caller, params.code, body.reason));
  bindRoute(router, r.audit, authenticate, async ({ query }) => {
    const { entries, total } = await deps.audit.list({
      actorId: query.actor_id, targetType: query.target_type, targetId: query.target_id, action: query.action, limit: query.limit, page: query.page,
    });
    return { entries: entries.map(toAuditView), total, page: query.page, limit: query.limit };
  });
  bindRoute(router, r.ratingHistory, authenticate, async ({ params }) => {
    const user = await deps.users.findByPlatformId(params.platformId);
    if (!user) throw new HttpError(404, 'user not found');
    return ratings.history(user.id);
  });
  return router;
}

const toAuditView = (record: AdminAuditRecord) => ({
  id: record.id,
  actor_id: record.actorId,
  action: record.action,
  target_type: record.targetType,
  target_id: record.targetId,
  before: record.before ?? null,
  after: record.after ?? null,
  reason: record.reason,
  created_at: record.createdAt.toISOString(),
});
