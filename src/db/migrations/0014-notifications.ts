import { Migration } from '@mikro-orm/migrations';

/**
 * Chat-platform notifications: the webhooks admins register, the outbox of events, and one
 * delivery row per (event, webhook).
 *
 * Events and their deliveries are written by the same statement as the change that caused them
 * (see notification-outbox.ts), and `dedupe_key` is unique, so an event such as "lobby X went
 * live" exists once however often the lobby record is saved. The lease columns on the webhook
 * make one instance at a time its sender (see delivery-repository.ts); deliveries are sent in id
 * order per webhook, so `(webhook_id, status, id)` is the index the worker reads by.
 */
export class NotificationsSchema extends Migration {
  override up(): void {
    this.addSql(`create table "notification_webhooks" (
      "id" serial primary key,
      "name" varchar(80) not null,
      "source" text not null default 'admin',
      "url_cipher" text not null,
      "url_hash" varchar(64) not null,
      "url_host" varchar(255) not null,
      "url_tail" varchar(4) not null,
      "events" text[] not null,
      "enabled" boolean not null default true,
      "disabled_reason" varchar(200) null,
      "not_before" timestamptz null,
      "lease_owner" varchar(64) null,
      "lease_until" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "notification_webhooks_source_check" check ("source" in ('admin', 'environment'))
    )`);
    // DISCORD_WEBHOOK_URL is one row every instance upserts at start-up.
    this.addSql(`create unique index "notification_webhooks_environment_unique" on "notification_webhooks" ("source") where "source" = 'environment'`);

    this.addSql(`create table "notification_events" (
      "id" bigserial primary key,
      "type" text not null,
      "dedupe_key" varchar(200) not null,
      "payload" jsonb not null,
      "created_at" timestamptz not null default now(),
      constraint "notification_events_dedupe_key_unique" unique ("dedupe_key")
    )`);

    this.addSql(`create table "notification_deliveries" (
      "id" bigserial primary key,
      "event_id" bigint not null,
      "webhook_id" int not null,
      "status" text not null default 'pending',
      "attempts" int not null default 0,
      "failures" int not null default 0,
      "next_attempt_at" timestamptz not null default now(),
      "last_status" int null,
      "last_error" varchar(300) null,
      "sent_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      constraint "notification_deliveries_event_webhook_unique" unique ("event_id", "webhook_id"),
      constraint "notification_deliveries_event_id_foreign" foreign key ("event_id") references "notification_events" ("id") on delete cascade,
      constraint "notification_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "notification_webhooks" ("id") on delete cascade,
      constraint "notification_deliveries_status_check" check ("status" in ('pending', 'sent', 'failed'))
    )`);
    this.addSql(`create index "notification_deliveries_webhook_status_index" on "notification_deliveries" ("webhook_id", "status", "id")`);
    this.addSql(`create index "notification_deliveries_status_index" on "notification_deliveries" ("status", "id")`);
  }

  override down(): void {
    for (const table of ['notification_deliveries', 'notification_events', 'notification_webhooks']) this.addSql(`drop table if exists "${table}"`);
  }
}
