import type { PGlite } from '@electric-sql/pglite';

/**
 * A replacement for pglite-socket's query queue (0.2.17).
 *
 * PGlite is one Postgres backend shared by every socket. The stock queue hands the backend to
 * whichever connection has a message waiting, and only keeps it with one connection while an
 * explicit transaction block is open. The extended protocol sends a query as several messages
 * (Parse, Bind, Describe, Execute, Sync) that are processed one at a time, so two connections'
 * messages interleave and one binds the other's unnamed statement ("portal does not exist",
 * rows of the wrong query). Measured: 3000 concurrent pooled queries mixed with transactions
 * broke within seconds.
 *
 * This queue keeps the backend with one connection from its first message until the backend
 * answers ReadyForQuery with status idle ('I'): that spans one simple query, one extended
 * sequence up to Sync, or a whole transaction. Other connections wait their turn. The stock queue
 * also stops draining for good after one failed message; this one carries on.
 */
export class ProtocolUnitQueue {
  private queue: QueuedMessage[] = [];
  private owner: number | null = null;
  private draining = false;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.drain();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A connection that left mid-unit must not keep the backend: end its sequence and roll back. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    await this.db.runExclusive(async () => {
      await this.db.execProtocolRaw(SYNC_MESSAGE);
      if (this.db.isInTransaction()) await this.db.execProtocolRaw(ROLLBACK_MESSAGE);
    });
    this.owner = null;
    void this.drain();
  }

  private next(): QueuedMessage | undefined {
    if (this.owner === null) return this.queue.shift();
    const index = this.queue.findIndex((item) => item.handlerId === this.owner);
    return index === -1 ? undefined : this.queue.splice(index, 1)[0];
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let item = this.next(); item; item = this.next()) await this.run(item);
    } finally {
      this.draining = false;
    }
  }

  private async run(item: QueuedMessage): Promise<void> {
    const tail = new Uint8Array(READY_FOR_QUERY_LENGTH);
    let tailLength = 0;
    let bytes = 0;
    try {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(item.message, {
          onRawData: (chunk: Uint8Array) => {
            bytes += chunk.length;
            tailLength = keepTail(tail, tailLength, chunk);
            item.onData(chunk);
          },
        }),
      );
    } catch (error) {
      // The handler closes its socket on this rejection, and its detach releases ownership.
      this.owner = item.handlerId;
      item.reject(error);
      return;
    }
    this.owner = releasesBackend(item.message, tail, tailLength) ? null : item.handlerId;
    item.resolve(bytes);
  }
}

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

const READY_FOR_QUERY_LENGTH = 6; // 'Z', int32 length 5, status byte
const TERMINATE = 0x58; // 'X'
const SYNC_MESSAGE = new Uint8Array([0x53, 0, 0, 0, 4]);
const ROLLBACK_MESSAGE = simpleQuery('ROLLBACK');

function simpleQuery(sql: string): Uint8Array {
  const text = new TextEncoder().encode(`${sql}\0`);
  const message = new Uint8Array(5 + text.length);
  message[0] = 0x51; // 'Q'
  new DataView(message.buffer).setInt32(1, 4 + text.length);
  message.set(text, 5);
  return message;
}

/** Keeps the last bytes of the response stream in `tail` (a sliding window); returns its new fill. */
function keepTail(tail: Uint8Array, filled: number, chunk: Uint8Array): number {
  if (chunk.length >= tail.length) {
    tail.set(chunk.subarray(chunk.length - tail.length));
    return tail.length;
  }
  const keep = Math.min(filled, tail.length - chunk.length);
  tail.copyWithin(0, filled - keep, filled);
  tail.set(chunk, keep);
  return keep + chunk.length;
}

function releasesBackend(message: Uint8Array, tail: Uint8Array, tailLength: number): boolean {
  if (message[0] === TERMINATE) return true;
  if (tailLength < READY_FOR_QUERY_LENGTH) return false;
  const isReadyForQuery = tail[0] === 0x5a && tail[1] === 0 && tail[2] === 0 && tail[3] === 0 && tail[4] === 5;
  return isReadyForQuery && tail[5] === 0x49; // 'I': idle, outside any transaction block
}
