import type { DeliveryView, WebhookView } from '../../schema/notifications';
import type { DeliveryRow } from '../db/delivery-repository';
import type { WebhookRow } from '../db/webhook-repository';

/* The notifications area's rows as the wire shows them. */

const iso = (value: Date | string) => new Date(value).toISOString();

/** Never the URL: only its host and last 4 characters. */
export const toWebhookView = (row: WebhookRow): WebhookView => ({
  id: row.id,
  name: row.name,
  source: row.source,
  url_host: row.url_host,
  url_last4: row.url_tail,
  events: row.events,
  enabled: row.enabled,
  disabled_reason: row.disabled_reason,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export const toDeliveryView = (row: DeliveryRow): DeliveryView => ({
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
