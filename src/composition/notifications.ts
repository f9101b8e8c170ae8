import { randomBytes } from 'node:crypto';
import type { DoorRoutes } from '../door/door-routes';
import { notificationsRouter } from '../../rest/routes/notifications-routes';
import type { Authenticate } from '../../rest/route-binder';
import type { Config } from '../config/config';
import { DeliveryRepository } from '../db/delivery-repository';
import type { LobbyNoticesOf } from '../db/lobby-record-repository';
import { notificationOutbox, type NotificationOutbox } from '../db/notification-outbox';
import type { Database } from '../db/orm';
import { WebhookRepository } from '../db/webhook-repository';
import type { LobbyState } from '../domain/lobby';
import { DEFAULT_RETRY_POLICY } from '../domain/notifications/delivery-policy';
import { lobbyEvents } from '../domain/notifications/notification-event';
import type { Caller } from '../identity/caller';
import { discordWebhookClient, type ExecuteWebhook } from '../integrations/discord-webhook-client';
import { DeliveryWorker } from '../notifications/delivery-worker';
import { UrlCipher } from '../notifications/url-cipher';
import { WebhookAdmin } from '../notifications/webhook-admin';

export interface NotificationsInput {
  config: Config;
  db: Database;
  /** The key of the webhook URLs' encryption is derived from it (url-cipher.ts). */
  sessionSecret: string;
  clock: () => number;
  logger: { error(details: object, message: string): void; warn(details: object, message: string): void };
  /** The jitter of the back-off (tests pin it); Math.random otherwise. */
  random?: () => number;
  /** The platform call (tests may wrap it); Discord's execute webhook otherwise. */
  execute?: ExecuteWebhook;
}

export interface Notifications {
  /** For areas that emit events inside their own transactions (announcements, tournaments). */
  outbox: NotificationOutbox;
  /** For the lobby record repository: lobby events go with the record's write. */
  lobbyNotices: LobbyNoticesOf;
  router(authenticate: Authenticate<Caller>): DoorRoutes;
  /** Pending deliveries to enabled webhooks: the metrics' outbox backlog gauge. */
  backlog(): Promise<number>;
  worker: DeliveryWorker;
  /** Starts the delivery worker (after the server listens). */
  start(): void;
  close(): Promise<void>;
}

/** The notifications area, assembled: registry, outbox port, delivery worker, routes. */
export async function assembleNotifications(input: NotificationsInput): Promise<Notifications> {
  const { config, db, clock, logger } = input;
  const settings = config.notify;
  const cipher = new UrlCipher(input.sessionSecret);
  const webhooks = new WebhookAdmin({ db, webhooks: new WebhookRepository(db), cipher, allowedOrigins: settings.webhookOrigins, clock });
  await webhooks.syncEnvironment(settings.discordWebhookUrl);
  const deliveries = new DeliveryRepository(db);
  const worker = new DeliveryWorker({
    deliveries,
    execute: input.execute ?? discordWebhookClient({ timeoutMs: settings.timeoutMs }),
    cipher,
    clock,
    random: input.random ?? Math.random,
    owner: `${process.pid}-${randomBytes(6).toString('hex')}`,
    publicUrl: config.publicUrl,
    pollMs: settings.pollMs,
    leaseMs: settings.leaseMs,
    timeoutMs: settings.timeoutMs,
    retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs: settings.retryBaseMs, maxDelayMs: settings.retryMaxMs },
    logger,
  });
  return {
    outbox: notificationOutbox,
    lobbyNotices: (docs) =>
      docs.flatMap((doc) => {
        try {
          return lobbyEvents(doc.snapshot as LobbyState).map((event) => ({ ...event, scope: doc.code }));
        } catch (error) {
          // A document the events cannot read must not cost the lobby its record: its events are lost, and said so.
          logger.error({ err: error, code: doc.code }, 'lobby notification events could not be derived');
          return [];
        }
      }),
    router: (authenticate) => notificationsRouter({ authenticate, webhooks, deliveries }),
    backlog: () => deliveries.backlog(),
    worker,
    start: () => worker.start(),
    close: () => worker.close(),
  };
}
