import type { InferEntity } from '@mikro-orm/core';
import { LobbyRecord } from './entities';
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

export class LobbyRecordRepository {
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
    // The snapshot travels as UTF-8 bytes: the ORM inlines a Buffer as hex, natively, where a
    // string is escaped one character at a time in JavaScript (40 lobbies of 4 KB each stalled
    // every write-behind flush by milliseconds, the largest part of the lobby commands' p99).
    const row = "(?, ?, ?, convert_from(?::bytea, 'UTF8')::jsonb, ?, coalesce(?::timestamptz, now()), coalesce(?::timestamptz, now()))";
    const upsert = `insert into lobby_records (code, phase, host_id, snapshot, version, created_at, updated_at)
       values ${docs.map(() => row).join(', ')}
       on conflict (code) do update set
         phase = excluded.phase,
         host_id = excluded.host_id,
         snapshot = excluded.snapshot,
         version = excluded.version,
         updated_at = excluded.updated_at
       where lobby_records.version < excluded.version
       returning code`;
    const params = docs.flatMap((doc) => [doc.code, doc.phase, doc.hostId, Buffer.from(JSON.stringify(doc.snapshot)), doc.version, at ?? null, at ?? null]);
    const events = this.noticesOf?.(docs) ?? [];
    if (events.length === 0) return (await this.db.em().execute<Array<{ code: string }>>(upsert, params)).map((r) => r.code);
    // One statement: the record and its notification events commit together.
    const outbox = outboxCtes(events, 'stored');
    const rows = await this.db.em().execute<Array<{ code: string }>>(`with stored as (${upsert}), ${outbox.sql} select code from stored`, [
      ...params,
      ...outbox.params,
    ]);
    return rows.map((r) => r.code);
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
