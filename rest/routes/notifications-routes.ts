import { Router } from 'express';
import { notificationsRoutes as r } from '../../schema/routes/notifications-routes';
import type { DeliveryView } from '../../schema/notifications';
import type { DeliveryRepository, DeliveryRow } from '../../src/db/delivery-repository';
import { userOf, type Caller } from '../../src/identity/caller';
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

const iso = (value: Date | string) => new Date(value).toISOString();

const toDeliveryView = (row: DeliveryRow): DeliveryView => ({
  id: Number(row.id),
  event_id: Number(row.event_id),
  event_type: row.event_type,
  webhook_id: row.webhook_id,
  status: row.status,
  attempts: row.attempts,
  failures: row.failures,
  last_status: row.last_status,
  last_error: row.last_error,
  next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
  sent_at: row.sent_at === null ? null : iso(row.sent_at),
  created_at: iso(row.created_at),
});
