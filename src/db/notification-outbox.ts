import type { NotificationEvent } from '../domain/notifications/notification-event';
import type { EntityManager } from './orm';

/** An event with the record it belongs to (a lobby code): written only if that record's write went through. */
export type ScopedEvent = NotificationEvent & { scope: string };

/**
 * The outbox's SQL, as common-table expressions to put in the statement that makes the change:
 * the events (one per dedupe key: a key already there adds nothing) and a pending delivery for
 * every enabled webhook subscribed to each new event's type. Being part of the change's own
 * statement or transaction is the point: the change and its events commit together or not at
 * all, so a process dying between the two can neither lose an event nor invent one.
 *
 * `gate` names a CTE returning `code`: events whose scope is not among them are dropped (the
 * lobby record write skipped an older version, so its events are not news).
 */
export function outboxCtes(events: ScopedEvent[], gate?: string): { sql: string; params: unknown[] } {
  const rows = events.map(() => '(?::int, ?::text, ?::text, ?::text, ?::jsonb)').join(', ');
  const params = events.flatMap((e, i) => [i, e.scope, e.type, e.key, JSON.stringify(e.payload)]);
  const where = gate ? `where scope in (select code from ${gate})` : '';
  return {
    sql: `outbox_in (n, scope, type, dedupe_key, payload) as (values ${rows}),
      outbox_events as (
        insert into notification_events (type, dedupe_key, payload)
        select type, dedupe_key, payload from outbox_in ${where} order by n
        on conflict (dedupe_key) do nothing
        returning id, type),
      outbox_deliveries as (
        insert into notification_deliveries (event_id, webhook_id)
        select e.id, w.id from outbox_events e join notification_webhooks w on w.enabled and e.type = any(w.events)
        order by e.id, w.id
        returning id)`,
    params,
  };
}

/**
 * The outbox port other areas write through, inside their own transaction (announcements now,
 * tournaments later): `enqueueIn(em, events)` in the same `transactional` as the change.
 */
export interface NotificationOutbox {
  enqueueIn(em: EntityManager, events: NotificationEvent[]): Promise<number>;
}

export const notificationOutbox: NotificationOutbox = {
  async enqueueIn(em, events) {
    if (events.length === 0) return 0;
    const { sql, params } = outboxCtes(events.map((e) => ({ ...e, scope: e.key })));
    const [row] = await em.execute<Array<{ deliveries: string | number }>>(
      `with ${sql} select (select count(*) from outbox_deliveries) as deliveries`,
      params,
    );
    return Number(row.deliveries);
  },
};
