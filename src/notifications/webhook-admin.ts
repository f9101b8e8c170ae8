import { NOTIFICATION_EVENT_TYPES, type WebhookCreateBody, type WebhookPatchBody, type WebhookView } from '../../schema/notifications';
import { toWebhookView } from './notification-views';
import { AdminAuditRepository } from '../db/admin-audit-repository';
import type { Database, EntityManager } from '../db/orm';
import type { WebhookRepository, WebhookRow, SealedWebhook } from '../db/webhook-repository';
import { conflict, DomainError, notFound } from '../domain/domain-error';
import { checkWebhookUrl, webhookUrlParts } from '../domain/notifications/webhook-url';
import { urlHash, type UrlCipher } from './url-cipher';

export interface WebhookAdminDeps {
  db: Pick<Database, 'em'>;
  webhooks: WebhookRepository;
  cipher: UrlCipher;
  allowedOrigins: readonly string[];
  clock: () => number;
}

/** The webhook registry as admins change it: every change with its audit row, none showing the URL. */
export class WebhookAdmin {
  constructor(private readonly deps: WebhookAdminDeps) {}

  async page(page: number, limit: number) {
    const { rows, total } = await this.deps.webhooks.page(page, limit);
    return { webhooks: rows.map(toWebhookView), total, page, limit };
  }

  async get(id: number): Promise<WebhookView> {
    const row = await this.deps.webhooks.get(id);
    if (!row) throw notFound('webhook not found');
    return toWebhookView(row);
  }

  create(actorId: number, body: WebhookCreateBody): Promise<WebhookView> {
    const sealed = this.#seal(body.url);
    const hook: SealedWebhook = { ...sealed, name: body.name ?? sealed.urlHost, events: distinct(body.events) };
    return this.#change(actorId, 'webhook.create', async (em, now) => {
      const row = await this.deps.webhooks.createIn(em, hook, now);
      return { id: row.id, before: null, after: toWebhookView(row) };
    });
  }

  update(actorId: number, id: number, patch: WebhookPatchBody): Promise<WebhookView> {
    const url = patch.url === undefined ? undefined : this.#seal(patch.url);
    return this.#change(actorId, 'webhook.update', async (em, now) => {
      const row = await this.#editable(em, id);
      const updated = await this.deps.webhooks.updateIn(em, id, {
        name: patch.name, url, events: patch.events && distinct(patch.events), enabled: patch.enabled,
      }, now);
      return { id, before: toWebhookView(row), after: toWebhookView(updated) };
    });
  }

  remove(actorId: number, id: number): Promise<null> {
    return this.#change(actorId, 'webhook.delete', async (em) => {
      const row = await this.#editable(em, id);
      await this.deps.webhooks.deleteIn(em, id);
      return { id, before: toWebhookView(row), after: null };
    });
  }

  /** DISCORD_WEBHOOK_URL (or its absence) into the registry, every event subscribed. */
  async syncEnvironment(url: string | undefined): Promise<void> {
    const now = new Date(this.deps.clock());
    if (url === undefined) return this.deps.webhooks.syncEnvironment(null, now);
    const parts = webhookUrlParts(url);
    await this.deps.webhooks.syncEnvironment(
      { name: 'DISCORD_WEBHOOK_URL', urlCipher: this.deps.cipher.seal(url), urlHash: urlHash(url), urlHost: parts.host, urlTail: parts.last4, events: NOTIFICATION_EVENT_TYPES },
      now,
    );
  }

  async #editable(em: EntityManager, id: number): Promise<WebhookRow> {
    const row = await this.deps.webhooks.get(id, em, true);
    if (!row) throw notFound('webhook not found');
    if (row.source === 'environment') throw conflict('this webhook is DISCORD_WEBHOOK_URL: change it in the environment');
    return row;
  }

  #seal(url: string): Omit<SealedWebhook, 'name' | 'events'> {
    const parts = checkWebhookUrl(url, this.deps.allowedOrigins);
    if (parts instanceof DomainError) throw parts;
    return { urlCipher: this.deps.cipher.seal(url), urlHash: urlHash(url), urlHost: parts.host, urlTail: parts.last4 };
  }

  async #change<T>(actorId: number, action: string, apply: (em: EntityManager, now: Date) => Promise<{ id: number; before: unknown; after: T }>): Promise<T> {
    const now = new Date(this.deps.clock());
    return this.deps.db.em().transactional(async (em) => {
      const change = await apply(em, now);
      await AdminAuditRepository.insertIn(em, { actorId, action, targetType: 'webhook', targetId: String(change.id), before: change.before, after: change.after, reason: null });
      return change.after;
    });
  }
}

const distinct = <T>(list: readonly T[]): T[] => [...new Set(list)];
