import { createHmac } from 'node:crypto';
import type { ApiKeyAuditRow } from '../db/audit-repository';

export interface AuditSink {
  insertMany(rows: readonly ApiKeyAuditRow[]): Promise<void>;
  /** Best effort: when each key was last used, from the same batch. */
  touchLastUsed?(keyId: number, at: Date): Promise<void>;
}

export interface KeyUse {
  keyId: number;
  endpoint: string;
  method: string;
  clientAddress: string;
  status: number;
  at: number;
}

export interface KeyAuditLogOptions {
  /** Rows are written at least this often... */
  flushEveryMs?: number;
  /** ...or as soon as this many are waiting. */
  batchSize?: number;
  onError?: (error: unknown) => void;
}

/** Beyond this many unwritten rows (a long database outage) the oldest are dropped, and counted. */
const MAX_PENDING = 100_000;

/**
 * The audit trail of key uses (spec, Authentication rule 6). A request only appends to memory;
 * rows reach the database in one multi-row INSERT per batch, so auditing adds no database round
 * trip to the request. A failed batch goes back to the front of the queue and is retried;
 * `close()` writes what is left, so a graceful shutdown loses nothing.
 *
 * The client address is stored as an HMAC with a server secret: equal addresses compare equal
 * within a deployment, and the table alone does not reveal them (a plain hash of an IPv4 address
 * is reversed by trying all 2^32).
 */
export class KeyAuditLog {
  private pending: ApiKeyAuditRow[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private dropped = 0;
  private readonly flushEveryMs: number;
  private readonly batchSize: number;

  constructor(
    private readonly sink: AuditSink,
    private readonly addressSecret: string,
    private readonly options: KeyAuditLogOptions = {},
  ) {
    this.flushEveryMs = options.flushEveryMs ?? 1_000;
    this.batchSize = options.batchSize ?? 100;
  }

  hashAddress(address: string): string {
    return createHmac('sha256', this.addressSecret).update(address).digest('hex');
  }

  record(use: KeyUse): void {
    this.pending.push({
      keyId: use.keyId,
      endpoint: use.endpoint.slice(0, 255),
      method: use.method,
      clientHash: this.hashAddress(use.clientAddress),
      status: use.status,
      createdAt: new Date(use.at),
    });
    if (this.pending.length > MAX_PENDING) this.dropped += this.pending.splice(0, this.pending.length - MAX_PENDING).length;
    if (this.pending.length >= this.batchSize) void this.flush();
    else this.armTimer();
  }

  get waiting(): number {
    return this.pending.length;
  }

  get droppedCount(): number {
    return this.dropped;
  }

  /** Writes everything queued so far; resolves once it is in the database (or failed and re-queued). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    this.clearTimer();
    this.flushing = this.writeAll().finally(() => {
      this.flushing = null;
      if (this.pending.length > 0) this.armTimer();
    });
    await this.flushing;
  }

  /** Stops the timer and writes what is left, retrying a failed batch once. */
  async close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    await this.flush();
    if (this.pending.length > 0) await this.flush();
  }

  private async writeAll(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.batchSize);
      try {
        await this.sink.insertMany(batch);
      } catch (error) {
        this.pending.unshift(...batch);
        this.options.onError?.(error);
        return;
      }
      await this.touchKeys(batch);
    }
  }

  private async touchKeys(batch: readonly ApiKeyAuditRow[]): Promise<void> {
    if (!this.sink.touchLastUsed) return;
    const latest = new Map<number, Date>();
    for (const row of batch) {
      const seen = latest.get(row.keyId);
      if (!seen || seen < row.createdAt) latest.set(row.keyId, row.createdAt);
    }
    for (const [keyId, at] of latest) {
      await this.sink.touchLastUsed(keyId, at).catch((error: unknown) => this.options.onError?.(error));
    }
  }

  private armTimer(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.flushEveryMs);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
