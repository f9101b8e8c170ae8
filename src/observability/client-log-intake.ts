import { createHmac } from 'node:crypto';
import type { ClientLogEntryInput } from '../../schema/client-logs';
import type { ClientLogRepository, ClientLogRow } from '../db/client-log-repository';
import { hitSlidingWindow, type RateVerdict } from '../identity/key-rate-limit';
import type { LiveStore } from '../live/live-store';
import { GroupInsert } from './group-insert';

/** Who sent a batch, as the HTTP door read it. */
export interface ClientLogSender {
  /** The session's user, when the request carried one from this site. */
  userId: number | null;
  /** The client address (peer, or the trusted proxies' X-Forwarded-For). */
  address: string;
  userAgent: string | undefined;
}

export interface ClientLogIntakeDeps {
  repository: Pick<ClientLogRepository, 'insertMany'>;
  live: LiveStore;
  clock: () => number;
  /** Requests a minute per client address and per user (CLIENT_LOG_RATE_LIMIT). */
  ratePerMinute: number;
  /** Keys the address HMAC; derived from the session secret in the composition root. */
  addressSecret: string;
  refuse: (status: number, message: string, headers?: Record<string, string>) => Error;
  /** Told how many entries each stored batch held (the metrics). */
  onStored?: (entries: number) => void;
}

const WINDOW_MS = 60_000;
const MAX_USER_AGENT = 512;
/** 9 parameters a row: 5000 rows stay well under Postgres's 65535 parameters per statement. */
const MAX_ROWS_PER_INSERT = 5000;

/**
 * Takes client log batches in. The limits are counted in the live store, so a client spreading
 * its requests over instances gets no more than one instance would give it. A batch is written
 * by a multi-row INSERT shared with the batches that arrived meanwhile (group-insert.ts) and
 * awaited before the 204: an acknowledged entry is in Postgres, never in a buffer a crash could
 * lose (measured in bench/client-logs.ts; see the README).
 */
export class ClientLogIntake {
  readonly #writer: GroupInsert<ClientLogRow>;

  constructor(private readonly deps: ClientLogIntakeDeps) {
    this.#writer = new GroupInsert((rows) => deps.repository.insertMany(rows), MAX_ROWS_PER_INSERT);
  }

  hashAddress(address: string): string {
    return createHmac('sha256', this.deps.addressSecret).update(address).digest('hex');
  }

  /** Counts one request against the sender's address and user; throws 429 with Retry-After past either limit. */
  async admit(sender: ClientLogSender): Promise<void> {
    const { live, clock, ratePerMinute } = this.deps;
    const now = clock();
    const hits: Array<Promise<RateVerdict>> = [hitSlidingWindow(live, `ratelimit:clientlog:addr:${this.hashAddress(sender.address)}`, now, WINDOW_MS, ratePerMinute)];
    if (sender.userId !== null) hits.push(hitSlidingWindow(live, `ratelimit:clientlog:user:${sender.userId}`, now, WINDOW_MS, ratePerMinute));
    const refused = (await Promise.all(hits)).filter((verdict) => !verdict.allowed);
    if (refused.length === 0) return;
    const retryAfterS = Math.max(...refused.map((verdict) => (verdict.allowed ? 0 : verdict.retryAfterS)));
    throw this.deps.refuse(429, `rate limit exceeded: ${ratePerMinute} client log requests per minute`, { 'Retry-After': String(retryAfterS) });
  }

  async store(entries: readonly ClientLogEntryInput[], sender: ClientLogSender): Promise<void> {
    const receivedAt = new Date(this.deps.clock());
    const addressHash = this.hashAddress(sender.address);
    const userAgent = sender.userAgent ? sender.userAgent.slice(0, MAX_USER_AGENT) : null;
    await this.#writer.write(
      entries.map((entry) => ({
        level: entry.level,
        source: entry.source ?? null,
        message: entry.message,
        context: entry.context ?? null,
        at: new Date(entry.at),
        receivedAt,
        userId: sender.userId,
        addressHash,
        userAgent,
      })),
    );
    this.deps.onStored?.(entries.length);
  }
}
