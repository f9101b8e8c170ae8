import { Router, type Response } from 'express';
import { communityRoutes as r } from '../../schema/routes/community-routes';
import type { CategoryRepository } from '../../src/db/community/category-repository';
import type { ForumModeration } from '../../src/community/forum-moderation';
import type { ForumService, Written } from '../../src/community/forum-service';
import { userOf, type Caller } from '../../src/identity/caller';
import { approvalPending } from '../approval-pending';
import { bindRoute, RESPONDED, type Authenticate } from '../route-binder';

export interface CommunityRouterDeps {
  authenticate: Authenticate<Caller>;
  forum: ForumService;
  moderation: ForumModeration;
  categories: CategoryRepository;
}

/** A queued post answers 202 {approval_id} in place of the route's 201. */
function written<T>(res: Response, outcome: Written<T>): T | typeof RESPONDED {
  return outcome.kind === 'shown' ? outcome.value : approvalPending(res, outcome.approvalId);
}

export function communityRouter(deps: CommunityRouterDeps): Router {
  const router = Router();
  const { authenticate, forum, moderation, categories } = deps;
  bindRoute(router, r.categories, authenticate, () => categories.list());
  bindRoute(router, r.threadsInCategory, authenticate, ({ caller, params, query }) =>
    // optionalSession on the contract: an admin session sees hidden threads, an author their queued one.
    forum.threadsInCategory(caller, params.slug, query.page, query.limit),
  );
  bindRoute(router, r.thread, authenticate, ({ caller, params, query }) => forum.threadPage(caller, params.id, query.page, query.limit));
  bindRoute(router, r.search, authenticate, ({ query }) => forum.search(query.q, query.page, query.limit));
  bindRoute(router, r.userPosts, authenticate, ({ params, query }) => forum.postsByUser(params.userId, query.page, query.limit));

  bindRoute(router, r.createThread, authenticate, async ({ caller, body, res }) => written(res, await forum.createThread(caller, body)));
  bindRoute(router, r.reply, authenticate, async ({ caller, params, body, res }) => written(res, await forum.reply(caller, params.id, body.body)));
  bindRoute(router, r.editPost, authenticate, ({ caller, params, body }) => forum.edit(caller, params.id, body.body));
  bindRoute(router, r.deletePost, authenticate, ({ caller, params }) => forum.delete(caller, params.id));
  bindRoute(router, r.history, authenticate, ({ caller, params }) => forum.history(caller, params.id));
  bindRoute(router, r.report, authenticate, ({ caller, params, body }) => moderation.report(caller, params.id, body.reason));

  bindRoute(router, r.createCategory, authenticate, ({ caller, body }) => categories.create(userOf(caller).id, body));
  bindRoute(router, r.updateCategory, authenticate, ({ caller, params, body }) => categories.update(userOf(caller).id, params.id, body));
  bindRoute(router, r.deleteCategory, authenticate, ({ caller, params }) => categories.delete(userOf(caller).id, params.id));
  bindRoute(router, r.moderateThread, authenticate, ({ caller, params, body }) => moderation.patchThread(caller, params.id, body));
  bindRoute(router, r.reports, authenticate, ({ query }) => moderation.reports(query.status, query.page, query.limit));
  bindRoute(router, r.resolveReport, authenticate, ({ caller, params, body }) => moderation.resolve(caller, params.id, body));
  return router;
}
