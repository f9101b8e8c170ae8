import type { DueEvent } from '../domain/notifications/notification-event';
import { questionMarks, type Placeholder } from './bound-statement';
import type { EntityManager } from './orm';

/** An event with the record it belongs to (a lobby code): written only if that record's write went through. */
export type ScopedEvent = DueEvent & { scope: string };

/**
 * The outbox's SQL, as common-table expressions to put in the statement that makes the change:
 * the events (one per dedupe key: a key already there adds nothing) and a pending delivery for
 * every enabled webhook subscribed to each new event's type. Being part of the change's own
 * statement or transaction is the point: the change and its events commit together or not at
 * all, so a process dying between the two can neither lose an event nor invent one.
 *
 * An event with a `dueAt` (a scheduled announcement) gets deliveries first due then: until then
 * they are "scheduled" (never tried, due later) and the worker passes over them, so they hold up
 * nothing behind them (see DeliveryRepository.claim); from then on they take their place in line.
 *
 * `gate` names a CTE returning `code`: events whose scope is not among them are dropped (the
 * lobby record write skipped an older version, so its events are not news). `place` stands for
 * each value in the statement the way the statement runs.
 */
export function outboxCtes(events: ScopedEvent[], place: Placeholder, gate?: string): string {
  const rows = events
    .map((e, i) => `(${place(i)}::int, ${place(e.scope)}::text, ${place(e.type)}::text, ${place(e.key)}::text, ${place(JSON.stringify(e.payload))}::jsonb, ${place(e.dueAt ?? null)}::timestamptz)`)
    .join(', ');
  const where = gate ? `where scope in (select code from ${gate})` : '';
  return `outbox_in (n, scope, type, dedupe_key, payload, due_at) as (values ${rows}),
      outbox_events as (
        insert into notification_events (type, dedupe_key, payload)
        select type, dedupe_key, payload from outbox_in ${where} order by n
        on conflict (dedupe_key) do nothing
        returning id, type, dedupe_key),
      outbox_deliveries as (
        insert into notification_deliveries (event_id, webhook_id, next_attempt_at)
        select e.id, w.id, coalesce((select max(i.due_at) from outbox_in i where i.dedupe_key = e.dedupe_key), now())
        from outbox_events e join notification_webhooks w on w.enabled and e.type = any(w.events)
        order by e.id, w.id
        returning id)`;
}

/**
 * The outbox port other areas write through, inside their own transaction (announcements now,
 * tournaments later): `enqueueIn(em, events)` in the same `transactional` as the change.
 */
export interface NotificationOutbox {
  enqueueIn(em: EntityManager, events: DueEvent[]): Promise<number>;
  /**
   * A scheduled event's record changed before it was due: its deliveries not yet due move to
   * `dueAt` (null: the record is gone, they are withdrawn as failed) and, given a `payload`, say
   * what the record says now. Sent or tried ones stay as they were.
   */
  rescheduleIn?(em: EntityManager, key: string, dueAt: Date | null, payload?: unknown): Promise<void>;
}

export const notificationOutbox: NotificationOutbox = {
  async enqueueIn(em, events) {
    if (events.length === 0) return 0;
    const { place, params } = questionMarks();
    const sql = outboxCtes(
      events.map((e) => ({ ...e, scope: e.key })),
      place,
    );
    const [row] = await em.execute<Array<{ deliveries: string | number }>>(
      `with ${sql} select (select count(*) from outbox_deliveries) as deliveries`,
      params,
    );
    return Number(row.deliveries);
  },
  async rescheduleIn(em, key, dueAt, payload) {
    const scheduled = `event_id = (select id from notification_events where dedupe_key = ?) and status = 'pending' and attempts = 0 and next_attempt_at > now()`;
    if (payload !== undefined && dueAt !== null) {
      await em.execute(
        `update notification_events e set payload = ?::jsonb where e.dedupe_key = ?
         and exists (select 1 from notification_deliveries d where d.event_id = e.id and d.status = 'pending' and d.attempts = 0 and d.next_attempt_at > now())`,
        [JSON.stringify(payload), key],
      );
    }
    if (dueAt === null) await em.execute(`update notification_deliveries set status = 'failed', last_error = 'withdrawn before it was due' where ${scheduled}`, [key]);
    else await em.execute(`update notification_deliveries set next_attempt_at = greatest(?::timestamptz, now()) where ${scheduled}`, [dueAt, key]);
  },
};
