import type { ClaimedWebhook, DeliveryRepository, HeadDelivery } from '../db/delivery-repository';
import { nextStep, type RetryPolicy } from '../domain/notifications/delivery-policy';
import { discordMessage } from '../domain/notifications/discord-message';
import type { ExecuteWebhook } from '../integrations/discord-webhook-client';
import type { UrlCipher } from './url-cipher';

export interface DeliveryWorkerDeps {
  deliveries: DeliveryRepository;
  execute: ExecuteWebhook;
  cipher: UrlCipher;
  clock: () => number;
  /** In [0, 1): the back-off's jitter (injected so tests can pin it). */
  random: () => number;
  /** This instance's name on the leases it takes. */
  owner: string;
  publicUrl: string;
  pollMs: number;
  leaseMs: number;
  /** Bound on one call: a lease must outlive a call, so one is renewed before a call it might not cover. */
  timeoutMs: number;
  retry: RetryPolicy;
  logger: { error(details: object, message: string): void; warn(details: object, message: string): void };
}

/** How many webhooks one instance serves at once; each is still sent to one delivery at a time. */
const PARALLEL_WEBHOOKS = 8;
/** Deliveries sent under one claim before the webhook goes back in the pool (fairness between instances). */
const BATCH_PER_CLAIM = 100;
/** Pending deliveries read at once: one query per this many sends instead of one per send. */
const PREFETCH = 25;

/**
 * Sends the outbox: claims webhooks (DeliveryRepository.claim), and for each sends its pending
 * deliveries oldest first, one at a time, stopping at the first that must wait.
 *
 * At least once: a delivery is pending until a 2xx is recorded, so a crash anywhere before that
 * means another try. Never twice after a 2xx: the "sent" mark is written right after the 2xx
 * arrives; if that write fails the delivery is remembered as sent here and the mark retried
 * before anything else is sent to that webhook, and the lease is kept, not released, so no other
 * instance sends meanwhile. What stays open is a process dying between the platform's 2xx and
 * the mark's commit (one Postgres round trip: see `window`): the next holder of the lease sends
 * that message again. Discord's execute-webhook takes no nonce to deduplicate with, so that
 * window is the bound: at most one duplicate per crash per webhook.
 */
export class DeliveryWorker {
  readonly #sentUnmarked = new Set<number>();
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  #closed = false;
  /** Milliseconds from each 2xx's arrival to its "sent" mark committing: the duplicate window. */
  readonly window: number[] = [];

  constructor(private readonly deps: DeliveryWorkerDeps) {}

  start(): void {
    this.#schedule(0);
  }

  /** Something was enqueued here: look now rather than at the next poll. */
  wake(): void {
    if (this.#closed) return;
    if (this.#running) this.#again = true;
    else this.#schedule(0);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(ms: number): void {
    if (this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#running = this.runOnce()
        .catch((error) => this.deps.logger.error({ err: error }, 'notification delivery pass failed'))
        .then((busy) => {
          this.#running = null;
          const again = this.#again || busy === true;
          this.#again = false;
          this.#schedule(again ? 0 : this.deps.pollMs);
        });
    }, ms);
    this.#timer.unref();
  }

  /** One pass: claims what is due and sends it. True when it sent something (look again at once). */
  async runOnce(): Promise<boolean> {
    const { deliveries, owner, clock, leaseMs } = this.deps;
    const claimed = await deliveries.claim(owner, clock(), leaseMs, PARALLEL_WEBHOOKS);
    const sent = await Promise.all(claimed.map((hook) => this.#serve(hook)));
    return sent.some((n) => n > 0);
  }

  async #serve(hook: ClaimedWebhook): Promise<number> {
    const { deliveries, owner } = this.deps;
    let keepLease = false;
    let sent = 0;
    try {
      const url = this.deps.cipher.open(hook.urlCipher);
      if (url === null) {
        await deliveries.disableWebhook(hook.id, 'the stored URL cannot be read (SESSION_SECRET changed?): register it again', null, this.deps.clock());
        return 0;
      }
      let leaseUntil = hook.leaseUntil;
      let queue: HeadDelivery[] = [];
      while (sent < BATCH_PER_CLAIM && !this.#closed) {
        const now = this.deps.clock();
        if (leaseUntil - now < this.deps.timeoutMs * 2) {
          if (!(await deliveries.renew(hook.id, owner, now, this.deps.leaseMs))) return sent;
          leaseUntil = now + this.deps.leaseMs;
        }
        if (queue.length === 0) queue = await deliveries.pending(hook.id, PREFETCH, now);
        const head = queue.shift();
        if (head === undefined || head.dueAt > now) break;
        const outcome = await this.#deliver(hook.id, url, head);
        if (outcome === 'unmarked') {
          keepLease = true;
          break;
        }
        if (outcome !== 'sent') break;
        sent += 1;
      }
      return sent;
    } finally {
      if (!keepLease) await deliveries.release(hook.id, owner).catch(() => undefined);
    }
  }

  async #deliver(webhookId: number, url: string, head: HeadDelivery): Promise<'sent' | 'unmarked' | 'stop'> {
    const { deliveries, clock } = this.deps;
    if (this.#sentUnmarked.has(head.id)) return this.#markSent(webhookId, head.id, { status: null, error: null }, null, performance.now());
    const result = await this.deps.execute(url, discordMessage(head.event, this.deps.publicUrl));
    const arrived = performance.now();
    const now = clock();
    const step = nextStep(result, head.failures, now, this.deps.retry, this.deps.random());
    const attempt = { status: result.status, error: 'error' in result ? result.error : result.kind === 'rate_limited' ? 'rate limited' : null };
    switch (step.step) {
      case 'sent':
        return this.#markSent(webhookId, head.id, { status: attempt.status, error: null }, step.webhookPauseUntil, arrived);
      case 'wait':
        await deliveries.markRateLimited(head.id, webhookId, attempt, step.webhookPauseUntil);
        return 'stop';
      case 'retry':
        await deliveries.markRetry(head.id, step.failures, { status: attempt.status, error: step.error }, step.at);
        return 'stop';
      case 'fail':
        await deliveries.markFailed(head.id, step.failures, { status: attempt.status, error: step.error });
        this.deps.logger.warn({ webhookId, deliveryId: head.id, status: attempt.status }, 'notification delivery failed for good');
        return 'stop';
      case 'disable_webhook':
        await deliveries.disableWebhook(webhookId, step.reason, attempt, now);
        this.deps.logger.warn({ webhookId }, 'the platform no longer knows this webhook: disabled');
        return 'stop';
    }
  }

  async #markSent(webhookId: number, deliveryId: number, attempt: { status: number | null; error: null }, pauseUntil: number | null, arrived: number) {
    try {
      await this.deps.deliveries.markSent(deliveryId, webhookId, attempt, this.deps.clock(), pauseUntil);
      this.#sentUnmarked.delete(deliveryId);
      if (this.window.length < 10_000) this.window.push(performance.now() - arrived);
      return 'sent' as const;
    } catch (error) {
      this.#sentUnmarked.add(deliveryId);
      this.deps.logger.error({ err: error, webhookId, deliveryId }, 'recording a sent notification failed: kept as sent here, lease kept');
      return 'unmarked' as const;
    }
  }
}
