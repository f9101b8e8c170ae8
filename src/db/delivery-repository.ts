import type { DeliveryStatus, NotificationEventType } from '../../schema/notifications';
import type { NotificationEvent } from '../domain/notifications/notification-event';
import type { EmSource } from './orm';

/** A webhook this instance holds the lease of, with its sealed URL. */
export interface ClaimedWebhook {
  id: number;
  urlCipher: string;
  leaseUntil: number;
}

/** The oldest pending delivery of a webhook: the only one that may be sent next (order per webhook). */
export interface HeadDelivery {
  id: number;
  failures: number;
  dueAt: number;
  event: NotificationEvent;
}

export interface DeliveryRow {
  id: string | number;
  event_id: string | number;
  event_type: NotificationEventType;
  webhook_id: number;
  status: DeliveryStatus;
  attempts: number;
  failures: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | string;
  sent_at: Date | string | null;
  created_at: Date | string;
}

/** What one call did, recorded on the delivery. */
export interface Attempt {
  status: number | null;
  error: string | null;
}

/**
 * The outbox's delivery side. One instance at a time sends to a webhook: it holds the webhook
 * row's lease (lease_owner, lease_until), taken by an UPDATE whose candidates are picked with
 * FOR UPDATE SKIP LOCKED, so two instances claiming at once each get other webhooks instead of
 * waiting on each other. The lease lives in Postgres beside the deliveries, not in Redis: the
 * claim, the order and the "sent" mark read and write the same rows, there is nothing to keep in
 * step across two stores, and the embedded mode (PGlite, in-memory live store) works the same.
 * A dead instance's lease runs out after NOTIFY_LEASE_MS and another instance takes over.
 */
export class DeliveryRepository {
  constructor(private readonly db: EmSource) {}

  /** Leases up to `limit` enabled webhooks whose oldest pending delivery is due and that no live lease holds. */
  async claim(owner: string, now: number, leaseMs: number, limit: number): Promise<ClaimedWebhook[]> {
    const at = new Date(now);
    const until = new Date(now + leaseMs);
    const rows = await this.db.em().execute<Array<{ id: number; url_cipher: string }>>(
      `update notification_webhooks w set lease_owner = ?, lease_until = ?
       where w.id in (
         select c.id from notification_webhooks c
         where c.enabled
           and (c.lease_until is null or c.lease_until < ? or c.lease_owner = ?)
           and (c.not_before is null or c.not_before <= ?)
           and (select d.next_attempt_at from notification_deliveries d
                where d.webhook_id = c.id and d.status = 'pending' and ${NOT_SCHEDULED} order by d.id limit 1) <= ?
         order by c.id
         limit ?
         for update skip locked)
       returning w.id, w.url_cipher`,
      [owner, until, at, owner, at, at, at, limit],
    );
    return rows.map((r) => ({ id: r.id, urlCipher: r.url_cipher, leaseUntil: until.getTime() }));
  }

  /** Extends the lease; false when another instance has taken it meanwhile. */
  async renew(webhookId: number, owner: string, now: number, leaseMs: number): Promise<boolean> {
    const rows = await this.db.em().execute<unknown[]>(
      'update notification_webhooks set lease_until = ? where id = ? and lease_owner = ? returning id',
      [new Date(now + leaseMs), webhookId, owner],
    );
    return rows.length > 0;
  }

  async release(webhookId: number, owner: string): Promise<void> {
    await this.db.em().execute('update notification_webhooks set lease_owner = null, lease_until = null where id = ? and lease_owner = ?', [webhookId, owner]);
  }

  /**
   * The next pending deliveries of a webhook, oldest first: the first is the only one that may be
   * sent now (order per webhook), the rest follow it while the lease is held (nobody else sends them).
   */
  async pending(webhookId: number, limit: number, now: number): Promise<HeadDelivery[]> {
    const rows = await this.db.em().execute<Array<{ id: string; failures: number; next_attempt_at: Date | string; type: string; dedupe_key: string; payload: unknown }>>(
      `select d.id, d.failures, d.next_attempt_at, e.type, e.dedupe_key, e.payload
       from notification_deliveries d join notification_events e on e.id = d.event_id
       where d.webhook_id = ? and d.status = 'pending' and ${NOT_SCHEDULED} order by d.id limit ?`,
      [webhookId, new Date(now), limit],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      failures: row.failures,
      dueAt: new Date(row.next_attempt_at).getTime(),
      event: { type: row.type, key: row.dedupe_key, payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload } as NotificationEvent,
    }));
  }

  /** The 2xx is recorded; `pauseUntil` holds the webhook's next call when the platform said its bucket is empty. */
  async markSent(deliveryId: number, webhookId: number, attempt: Attempt, now: number, pauseUntil: number | null): Promise<void> {
    await this.db.em().execute(
      `with d as (update notification_deliveries set status = 'sent', attempts = attempts + 1, last_status = coalesce(?, last_status), last_error = null, sent_at = ?
                  where id = ? and status = 'pending' returning id)
       update notification_webhooks set not_before = ? where id = ?`,
      [attempt.status, new Date(now), deliveryId, pauseUntil === null ? null : new Date(pauseUntil), webhookId],
    );
  }

  /** A 429: the delivery stays first in line and the whole webhook waits `until`. */
  async markRateLimited(deliveryId: number, webhookId: number, attempt: Attempt, until: number): Promise<void> {
    await this.db.em().execute(
      `with d as (update notification_deliveries set attempts = attempts + 1, last_status = ?, last_error = ? where id = ? returning id)
       update notification_webhooks set not_before = ? where id = ?`,
      [attempt.status, attempt.error, deliveryId, new Date(until), webhookId],
    );
  }

  async markRetry(deliveryId: number, failures: number, attempt: Attempt, at: number): Promise<void> {
    await this.db.em().execute(
      'update notification_deliveries set attempts = attempts + 1, failures = ?, last_status = ?, last_error = ?, next_attempt_at = ? where id = ?',
      [failures, attempt.status, clip(attempt.error), new Date(at), deliveryId],
    );
  }

  async markFailed(deliveryId: number, failures: number, attempt: Attempt): Promise<void> {
    await this.db.em().execute(
      `update notification_deliveries set status = 'failed', attempts = attempts + 1, failures = ?, last_status = ?, last_error = ? where id = ?`,
      [failures, attempt.status, clip(attempt.error), deliveryId],
    );
  }

  /**
   * The platform no longer knows the webhook (404), or its URL cannot be read: it is disabled and
   * its pending deliveries fail with it, in one transaction, so nothing keeps trying a dead address.
   */
  async disableWebhook(webhookId: number, reason: string, attempt: Attempt | null, now: number): Promise<void> {
    await this.db.em().transactional(async (em) => {
      await em.execute(
        'update notification_webhooks set enabled = false, disabled_reason = ?, lease_owner = null, lease_until = null, updated_at = ? where id = ?',
        [clip(reason), new Date(now), webhookId],
      );
      await em.execute(
        `update notification_deliveries set status = 'failed', last_status = coalesce(?, last_status), last_error = ? where webhook_id = ? and status = 'pending'`,
        [attempt?.status ?? null, clip(`webhook disabled: ${reason}`), webhookId],
      );
    });
  }

  async page(filter: { status?: DeliveryStatus; webhookId?: number; page: number; limit: number }): Promise<{ rows: DeliveryRow[]; total: number }> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (filter.status !== undefined) conditions.push('d.status = ?') && params.push(filter.status);
    if (filter.webhookId !== undefined) conditions.push('d.webhook_id = ?') && params.push(filter.webhookId);
    const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';
    const em = this.db.em();
    const [rows, [count]] = await Promise.all([
      em.execute<DeliveryRow[]>(
        `select d.*, e.type as event_type from notification_deliveries d join notification_events e on e.id = d.event_id
         ${where} order by d.id desc limit ? offset ?`,
        [...params, filter.limit, (filter.page - 1) * filter.limit],
      ),
      em.execute<Array<{ total: string }>>(`select count(*) as total from notification_deliveries d ${where}`, params),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** Deliveries still to send to enabled webhooks: the backlog /metrics shows. */
  async backlog(): Promise<number> {
    const [row] = await this.db.em().execute<Array<{ n: string }>>(
      `select count(*) as n from notification_deliveries d join notification_webhooks w on w.id = d.webhook_id where d.status = 'pending' and w.enabled`,
    );
    return Number(row.n);
  }
}

/**
 * A scheduled delivery (never tried, first due later: an announcement whose window has not
 * opened) is not in line yet: order per webhook is among the others, so it holds nothing up.
 * Takes one parameter, now. Retries and 429s count an attempt, so they do hold their place.
 */
const NOT_SCHEDULED = 'not (d.attempts = 0 and d.next_attempt_at > ?)';

const clip = (text: string | null) => (text === null ? null : text.slice(0, 300));
