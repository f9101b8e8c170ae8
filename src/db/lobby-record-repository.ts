import type { InferEntity } from '@mikro-orm/core';
import { LobbyRecord } from './entities';
import { LruMap } from '../collections/lru-map';
import { BoundParams, executeBound } from './bound-statement';
import { outboxCtes, type ScopedEvent } from './notification-outbox';
import type { EmSource } from './orm';

export interface LobbyDocument {
  code: string;
  phase: string;
  hostId: number;
  /** The live document's version; a save with a version not above the stored one is ignored. */
  version: number;
  /** The whole live lobby document, as the live store holds it. */
  snapshot: Record<string, unknown>;
}

export interface StoredLobby extends LobbyDocument {
  createdAt: Date;
  updatedAt: Date;
}

/** Phases after which a lobby is history and not rebuilt. */
const CLOSED_PHASES = ['ended', 'cancelled'];

/** The notification events a set of lobby documents stands for (see lobbyEvents). */
export type LobbyNoticesOf = (docs: LobbyDocument[]) => ScopedEvent[];

/** Outbox keys this process remembers as written: far more than a league has lobbies open. */
const ENQUEUED_CAPACITY = 20_000;

export class LobbyRecordRepository {
  /**
   * The dedupe keys of lobby events this process's statements have put in the outbox (or found
   * there). A gathering lobby stands for its `lobby.created` event in every record written, four
   * times a second while it is busy; the outbox would refuse each again by its key (on conflict do
   * nothing), but only after Postgres had looked it up: a fifth of Postgres's time in lobby-rest
   * (docs/benchmarks.md, round 35). An event known written is not sent again. Another instance
   * sends it once more, and the key refuses it as before.
   */
  readonly #enqueued = new LruMap<string, true>(ENQUEUED_CAPACITY);

  constructor(
    private readonly db: EmSource,
    /** With it, the events go into the outbox in the same statement as the record (notification-outbox.ts). */
    private readonly noticesOf?: LobbyNoticesOf,
  ) {}

  /**
   * Upserts the lobby unless the stored copy is as new or newer, so a late write from a slower
   * instance never rolls a lobby back. Returns whether this document was stored.
   */
  async save(doc: LobbyDocument, at?: Date): Promise<boolean> {
    return (await this.saveMany([doc], at)).length > 0;
  }

  /**
   * `save` for many lobbies (each code once) in one statement: the write-behind flush writes
   * every lobby that changed in its window together, one round trip and one plan instead of a
   * query per lobby. Returns the codes stored.
   */
  async saveMany(docs: LobbyDocument[], at?: Date): Promise<string[]> {
    if (docs.length === 0) return [];
    // Bound, not formatted in: each snapshot goes as its JSON text, parsed once, by Postgres (see executeBound).
    const { add: place, values } = new BoundParams();
    const when = `coalesce(${place(at ?? null)}::timestamptz, now())`;
    const rows = docs.map(
      (doc) => `(${place(doc.code)}, ${place(doc.phase)}, ${place(doc.hostId)}::int, ${place(JSON.stringify(doc.snapshot))}::jsonb, ${place(doc.version)}::int, ${when}, ${when})`,
    );
    const upsert = `insert into lobby_records (code, phase, host_id, snapshot, version, created_at, updated_at)
       values ${rows.join(', ')}
       on conflict (code) do update set
         phase = excluded.phase,
         host_id = excluded.host_id,
         snapshot = excluded.snapshot,
         version = excluded.version,
         updated_at = excluded.updated_at
       where lobby_records.version < excluded.version
       returning code`;
    const events = (this.noticesOf?.(docs) ?? []).filter((event) => this.#enqueued.get(event.key) === undefined);
    // One statement: the record and its notification events commit together.
    const sql = events.length === 0 ? upsert : `with stored as (${upsert}), ${outboxCtes(events, place, 'stored')} select code from stored`;
    const stored = (await executeBound<{ code: string }>(this.db.em(), sql, values)).map((r) => r.code);
    // A stored record's events are in the outbox now, whether this statement inserted them or found them there.
    for (const event of events) if (stored.includes(event.scope)) this.#enqueued.set(event.key, true);
    return stored;
  }

  async load(code: string): Promise<StoredLobby | null> {
    const record = await this.db.em().findOne(LobbyRecord, { code });
    return record ? toStoredLobby(record) : null;
  }

  /** Lobbies not yet ended or cancelled: what to rebuild when the live store comes back empty. */
  async loadOpen(): Promise<StoredLobby[]> {
    const records = await this.db
      .em()
      .find(LobbyRecord, { phase: { $nin: CLOSED_PHASES } }, { orderBy: { createdAt: 'asc', code: 'asc' } });
    return records.map(toStoredLobby);
  }
}

function toStoredLobby(record: InferEntity<typeof LobbyRecord>): StoredLobby {
  return {
    code: record.code,
    phase: record.phase,
    hostId: record.hostId,
    version: record.version,
    snapshot: record.snapshot,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
