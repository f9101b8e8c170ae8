/**
 * Pre-serialised answers for the hot public reads: the bytes are built once and handed to every
 * reader until they are older than `ttlMs` or invalidated by a change, so a burst of readers costs
 * one database query and one JSON.stringify. Concurrent misses share one load.
 */
export interface CachedAnswer {
  status: number;
  bytes: Buffer;
  builtAt: number;
}

interface Entry extends CachedAnswer {
  generation: number;
}

export class SerializedCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<CachedAnswer>>();
  /** Per topic (the key's part before the first ':'), bumped by every invalidation of it. */
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly clock: () => number,
  ) {}

  /** The answer if it is fresh, without any asynchronous step: the raw route's fast path. */
  peek(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.generation !== this.generationOf(key) || this.clock() - entry.builtAt >= this.ttlMs) return undefined;
    return entry;
  }

  /** Synchronous when fresh (no promise on the hot path), otherwise one shared load. */
  get(key: string, load: () => Promise<{ status: number; body: unknown }>): CachedAnswer | Promise<CachedAnswer> {
    const fresh = this.peek(key);
    if (fresh) return fresh;
    return this.loading.get(key) ?? this.load(key, load);
  }

  private async load(key: string, load: () => Promise<{ status: number; body: unknown }>): Promise<CachedAnswer> {
    const generation = this.generationOf(key);
    const promise = (async () => {
      const { status, body } = await load();
      const entry: Entry = { status, bytes: Buffer.from(JSON.stringify(body)), builtAt: this.clock(), generation };
      // A change that arrived while loading makes this answer stale: serve it once, keep nothing.
      if (generation === this.generationOf(key)) this.store(key, entry);
      return entry;
    })();
    this.loading.set(key, promise);
    try {
      return await promise;
    } finally {
      if (this.loading.get(key) === promise) this.loading.delete(key);
    }
  }

  /** Every answer of these topics is stale from now on (`matches` after a report, `lobbies` after a lobby change). */
  invalidate(...topics: string[]): void {
    for (const topic of topics) this.generations.set(topic, (this.generations.get(topic) ?? 0) + 1);
    for (const key of this.entries.keys()) {
      if (topics.includes(topicOf(key))) this.entries.delete(key);
    }
  }

  /** Every answer is stale from now on, loads under way included (invalidations may have been lost). */
  invalidateAll(): void {
    const keys = [...this.entries.keys(), ...this.loading.keys()];
    this.invalidate(...new Set([...this.generations.keys(), ...keys.map(topicOf)]));
  }

  private generationOf(key: string): number {
    return this.generations.get(topicOf(key)) ?? 0;
  }

  private store(key: string, entry: Entry): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
  }
}

function topicOf(key: string): string {
  const colon = key.indexOf(':');
  return colon === -1 ? key : key.slice(0, colon);
}
