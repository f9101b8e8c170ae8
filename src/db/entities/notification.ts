import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/*
 * The notifications area's tables (migration 0014). The code reads and writes them with SQL
 * (notification-outbox.ts, webhook-repository.ts, delivery-repository.ts); these definitions keep
 * the schema generator in step with the migration.
 */

export const NotificationWebhook = defineEntity({
  name: 'NotificationWebhook',
  tableName: 'notification_webhooks',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(80),
    source: p.text().default('admin'),
    urlCipher: p.text(),
    urlHash: p.string().length(64),
    urlHost: p.string().length(255),
    urlTail: p.string().length(4),
    events: p.array().columnType('text[]'),
    enabled: p.boolean().default(true),
    disabledReason: p.string().length(200).nullable(),
    notBefore: p.datetime().nullable(),
    leaseOwner: p.string().length(64).nullable(),
    leaseUntil: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
  uniques: [
    {
      name: 'notification_webhooks_environment_unique',
      expression: `create unique index "notification_webhooks_environment_unique" on "notification_webhooks" ("source") where "source" = 'environment'`,
    },
  ],
  checks: [{ name: 'notification_webhooks_source_check', expression: `"source" in ('admin', 'environment')` }],
});
export type NotificationWebhookEntity = InferEntity<typeof NotificationWebhook>;

export const NotificationEvent = defineEntity({
  name: 'NotificationEvent',
  tableName: 'notification_events',
  properties: {
    id: p.bigint('number').primary(),
    type: p.text(),
    dedupeKey: p.string().length(200).unique('notification_events_dedupe_key_unique'),
    payload: p.json(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type NotificationEventEntity = InferEntity<typeof NotificationEvent>;

export const NotificationDelivery = defineEntity({
  name: 'NotificationDelivery',
  tableName: 'notification_deliveries',
  properties: {
    id: p.bigint('number').primary(),
    event: () => p.manyToOne(NotificationEvent).mapToPk().deleteRule('cascade'),
    webhook: () => p.manyToOne(NotificationWebhook).mapToPk().deleteRule('cascade'),
    status: p.text().default('pending'),
    attempts: p.integer().default(0),
    failures: p.integer().default(0),
    nextAttemptAt: p.datetime().defaultRaw('now()'),
    lastStatus: p.integer().nullable(),
    lastError: p.string().length(300).nullable(),
    sentAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
  uniques: [{ name: 'notification_deliveries_event_webhook_unique', properties: ['event', 'webhook'] }],
  indexes: [
    { name: 'notification_deliveries_webhook_status_index', properties: ['webhook', 'status', 'id'] },
    { name: 'notification_deliveries_status_index', properties: ['status', 'id'] },
  ],
  checks: [{ name: 'notification_deliveries_status_check', expression: `"status" in ('pending', 'sent', 'failed')` }],
});
export type NotificationDeliveryEntity = InferEntity<typeof NotificationDelivery>;
