import type { NotificationEventType } from '../../schema/notifications';
import type { EmSource, EntityManager } from './orm';

export interface WebhookRow {
  id: number;
  name: string;
  source: 'admin' | 'environment';
  url_cipher: string;
  url_host: string;
  url_tail: string;
  events: NotificationEventType[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A webhook's stored form: the URL sealed (url-cipher.ts), with the host and tail reads may show. */
export interface SealedWebhook {
  name: string;
  urlCipher: string;
  urlHash: string;
  urlHost: string;
  urlTail: string;
  events: readonly NotificationEventType[];
}

export interface WebhookChange {
  name?: string;
  url?: Omit<SealedWebhook, 'name' | 'events'>;
  events?: readonly NotificationEventType[];
  enabled?: boolean;
}

/** The webhook registry. Writes take the caller's transaction so the audit row goes with them. */
export class WebhookRepository {
  constructor(private readonly db: EmSource) {}

  async page(page: number, limit: number): Promise<{ rows: WebhookRow[]; total: number }> {
    const em = this.db.em();
    const [rows, [count]] = await Promise.all([
      em.execute<WebhookRow[]>('select * from notification_webhooks order by id limit ? offset ?', [limit, (page - 1) * limit]),
      em.execute<Array<{ total: string }>>('select count(*) as total from notification_webhooks'),
    ]);
    return { rows, total: Number(count.total) };
  }

  async get(id: number, em: EntityManager = this.db.em(), lock = false): Promise<WebhookRow | null> {
    const [row] = await em.execute<WebhookRow[]>(`select * from notification_webhooks where id = ?${lock ? ' for update' : ''}`, [id]);
    return row ?? null;
  }

  async createIn(em: EntityManager, hook: SealedWebhook, now: Date): Promise<WebhookRow> {
    const [row] = await em.execute<WebhookRow[]>(
      `insert into notification_webhooks (name, url_cipher, url_hash, url_host, url_tail, events, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?::text[], ?, ?) returning *`,
      [hook.name, hook.urlCipher, hook.urlHash, hook.urlHost, hook.urlTail, `{${hook.events.join(',')}}`, now, now],
    );
    return row;
  }

  /** Applies the fields given; a new URL or `enabled: true` clears the reason it was disabled. */
  async updateIn(em: EntityManager, id: number, change: WebhookChange, now: Date): Promise<WebhookRow> {
    const sets: string[] = ['updated_at = ?'];
    const params: unknown[] = [now];
    if (change.name !== undefined) sets.push('name = ?') && params.push(change.name);
    if (change.events !== undefined) sets.push('events = ?::text[]') && params.push(`{${change.events.join(',')}}`);
    if (change.url !== undefined) {
      sets.push('url_cipher = ?', 'url_hash = ?', 'url_host = ?', 'url_tail = ?');
      params.push(change.url.urlCipher, change.url.urlHash, change.url.urlHost, change.url.urlTail);
    }
    if (change.enabled !== undefined) sets.push('enabled = ?') && params.push(change.enabled);
    if (change.enabled === true || (change.url !== undefined && change.enabled === undefined)) sets.push('disabled_reason = null');
    if (change.url !== undefined && change.enabled === undefined) sets.push('enabled = true');
    const [row] = await em.execute<WebhookRow[]>(`update notification_webhooks set ${sets.join(', ')} where id = ? returning *`, [...params, id]);
    return row;
  }

  async deleteIn(em: EntityManager, id: number): Promise<void> {
    await em.execute('delete from notification_webhooks where id = ?', [id]);
  }

  /**
   * DISCORD_WEBHOOK_URL as the one `environment` row, written by every instance at start-up:
   * a changed URL replaces it and enables it again; the same URL keeps its state (a webhook the
   * platform disabled stays disabled until the variable changes). Unset: the row is disabled.
   */
  async syncEnvironment(hook: SealedWebhook | null, now: Date): Promise<void> {
    const em = this.db.em();
    if (hook === null) {
      await em.execute(
        `update notification_webhooks set enabled = false, disabled_reason = 'DISCORD_WEBHOOK_URL is not set', updated_at = ? where source = 'environment' and enabled`,
        [now],
      );
      return;
    }
    await em.execute(
      `insert into notification_webhooks (name, source, url_cipher, url_hash, url_host, url_tail, events, created_at, updated_at)
       values (?, 'environment', ?, ?, ?, ?, ?::text[], ?, ?)
       on conflict (source) where source = 'environment' do update set
         url_cipher = excluded.url_cipher,
         enabled = case when notification_webhooks.url_hash = excluded.url_hash and notification_webhooks.disabled_reason is distinct from 'DISCORD_WEBHOOK_URL is not set'
           then notification_webhooks.enabled else true end,
         disabled_reason = case when notification_webhooks.url_hash = excluded.url_hash and notification_webhooks.disabled_reason is distinct from 'DISCORD_WEBHOOK_URL is not set'
           then notification_webhooks.disabled_reason else null end,
         url_hash = excluded.url_hash, url_host = excluded.url_host, url_tail = excluded.url_tail,
         events = excluded.events, updated_at = excluded.updated_at`,
      [hook.name, hook.urlCipher, hook.urlHash, hook.urlHost, hook.urlTail, `{${hook.events.join(',')}}`, now, now],
    );
  }
}
