import { Router } from 'express';
import { notificationsRoutes as r } from '../../schema/routes/notifications-routes';
import type { DeliveryRepository } from '../../src/db/delivery-repository';
import { userOf, type Caller } from '../../src/identity/caller';
import { toDeliveryView } from '../../src/notifications/notification-views';
import type { WebhookAdmin } from '../../src/notifications/webhook-admin';
import { bindRoute, type Authenticate } from '../route-binder';

export interface NotificationsRouterDeps {
  authenticate: Authenticate<Caller>;
  webhooks: WebhookAdmin;
  deliveries: Pick<DeliveryRepository, 'page'>;
}

export function notificationsRouter(deps: NotificationsRouterDeps): Router {
  const router = Router();
  const { authenticate, webhooks } = deps;

  bindRoute(router, r.createWebhook, authenticate, ({ caller, body }) => webhooks.create(userOf(caller).id, body));
  bindRoute(router, r.listWebhooks, authenticate, ({ query }) => webhooks.page(query.page, query.limit));
  bindRoute(router, r.getWebhook, authenticate, ({ params }) => webhooks.get(params.id));
  bindRoute(router, r.updateWebhook, authenticate, ({ caller, params, body }) => webhooks.update(userOf(caller).id, params.id, body));
  bindRoute(router, r.deleteWebhook, authenticate, ({ caller, params }) => webhooks.remove(userOf(caller).id, params.id));
  bindRoute(router, r.listDeliveries, authenticate, async ({ query }) => {
    const { rows, total } = await deps.deliveries.page({ status: query.status, webhookId: query.webhook_id, page: query.page, limit: query.limit });
    return { deliveries: rows.map(toDeliveryView), total, page: query.page, limit: query.limit };
  });
  return router;
}
