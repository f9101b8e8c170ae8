import * as v from 'valibot';
import { isClosed, LOBBY_PHASES, LobbyState, openMembers, withMemberKeys, type LobbyPhase } from '../domain/lobby';
import type { CasWrite, LiveStore, PartGuard, VersionedDoc } from '../live/live-store';
import type { WrittenKey } from './durable-change';
import type { EngineLogger, LobbyRecords } from './engine-ports';
import { lobbyKey, lobbyMemberKey } from './live-keys';
import { KeyedSerializer } from './keyed-serializer';
import { EPOCH_SPAN } from './live-epoch';

/** Closed lobbies stay readable in the live store for a day, then only from Postgres. */
export const CLOSED_LOBBY_TTL_MS = 24 * 60 * 60 * 1000;

/** A lobby as read from the live store: the document and the store's version to compare-and-set against. */
export interface LiveLobby {
  state: LobbyState;
  storeVersion: number;
}

export interface LoadedLobby extends LiveLobby {
  /** True when this call rebuilt the live document from Postgres. */
  restored: boolean;
  /** The lobby a durable change still pending would make (see PendingMark); `state` is the lobby before it. */
  pending?: LobbyState;
}

/** A lobby from outside the live store (a Postgres snapshot): checked against the schema in full. */
export function parseLobby(value: unknown): LobbyState {
  return withMemberKeys(v.parse(LobbyState, value));
}

/**
 * A lobby read back from the live store. Only this engine writes those documents, from states the
 * rules produced, so the hot path trusts them after a cheap shape check (the full schema check
 * cost a fifth of a command's CPU time).
 */
export function liveLobbyState(value: unknown): LobbyState {
  const state = value as LobbyState | null;
  if (typeof state?.code !== 'string' || !Array.isArray(state.pool) || typeof state.teams !== 'object') {
    throw new Error('the live store holds something that is not a lobby');
  }
  return withMemberKeys(state);
}

const OPEN_PHASES = LOBBY_PHASES.filter((phase) => !isClosed(phase));

/** The part of a lobby's document that marks a durable change as pending (see PendingMark). */
export const PENDING_PART = '~pending';

/**
 * A durable change (membership, phase, creation) is committed to the live store with this mark
 * beside it, announced to nobody, while Postgres writes it (see keepOrUndo). Readers see the lobby
 * as it was (`before`), commands wait until it is settled (awaitSettled), so nobody builds on a
 * change that may yet be taken back. The mark is a lease: past `until` (machine time, ms) its
 * process is taken for dead and the next command settles it by Postgres's record.
 */
export interface PendingMark {
  until: number;
  /** The lobby before the change; null for a creation. */
  before: LobbyState | null;
  /** The keys written beside the lobby, to take back with it. */
  others: WrittenKey[];
}

/** The pending mark a lobby document carries, or null. */
export function pendingOf(value: unknown): PendingMark | null {
  return ((value as Record<string, unknown> | null)?.[PENDING_PART] as PendingMark | undefined) ?? null;
}

/** The lobby as readers may see it: as it was before a pending change (null: a creation still pending). */
export function visibleLobby(value: unknown): LobbyState | null {
  const mark = pendingOf(value);
  return mark ? mark.before && withMemberKeys(mark.before) : liveLobbyState(value);
}

/**
 * A lobby is stored in parts, one per top-level field (see CasWrite.parts): a command then writes
 * only the parts it changed (a vote: `votes` and `version`, a few dozen bytes of a 4 KB lobby).
 * `base`: the state at `expectedVersion`, which the write changes; without it every part is written.
 */
export function lobbyWrite(state: LobbyState, expectedVersion: number, base?: LobbyState): CasWrite {
  const parts = base ? changedParts(base, state) : 'all';
  return { key: lobbyKey(state.code), expectedVersion, value: state, parts, ...(isClosed(state.phase) ? { ttlMs: CLOSED_LOBBY_TTL_MS } : {}) };
}

/**
 * The parts of `state` that are not `base`'s own objects. The rules' states share every part they
 * left equal with the state before (see applyLobbyCommand), so identity finds the changed ones
 * without walking them; a part changed and changed back within a batch is written again, harmlessly.
 */
function changedParts(base: LobbyState, state: LobbyState): string[] {
  const changed: string[] = [];
  for (const name in state) if (base[name as keyof LobbyState] !== state[name as keyof LobbyState]) changed.push(name);
  // A part the state no longer has is written as removed.
  for (const name in base) if (!Object.hasOwn(state, name)) changed.push(name);
  return changed;
}

/**
 * Lobby documents: the live store first, Postgres's lobby_records when the live store has lost
 * one (restart of a Redis without persistence, eviction, a flushed key). A restored lobby is put
 * back with expectedVersion 0, so two instances restoring at once end with one document.
 */
export class LobbyDocuments {
  /** One lane per lobby for this process's writes: see KeyedSerializer. */
  readonly lanes = new KeyedSerializer();

  constructor(
    private readonly live: LiveStore,
    private readonly records: LobbyRecords,
    private readonly logger: EngineLogger,
    /** The live epoch (see LiveEpoch); a rebuilt lobby's version starts above it. None: epoch 0. */
    private readonly epoch: () => Promise<number> = async () => 0,
    /** How long a durable change may stay pending before another command settles it (see PendingMark): above Postgres's bound. */
    readonly leaseMs = DEFAULT_DURABLE_LEASE_MS,
  ) {}

  /** The lobby as readers see it: a durable change still pending is not shown (null for a creation still pending). */
  async load(code: string): Promise<LoadedLobby | null> {
    const doc = await this.live.get(lobbyKey(code));
    if (doc) return this.#loaded(doc);
    return this.restore(code);
  }

  #loaded(doc: VersionedDoc<unknown>): LoadedLobby | null {
    const state = visibleLobby(doc.value);
    if (state === null) return null;
    return pendingOf(doc.value) ? { state, storeVersion: doc.version, restored: false, pending: liveLobbyState(doc.value) } : { state, storeVersion: doc.version, restored: false };
  }

  /**
   * The lobby's phase as readers see it (see `load`), read without the rest of the lobby: null
   * for a creation still pending, undefined when the live store has no document (only `load`
   * rebuilds one from Postgres).
   */
  async visiblePhase(code: string): Promise<LobbyPhase | null | undefined> {
    const doc = await this.live.getParts<{ phase: LobbyPhase; [PENDING_PART]: PendingMark }>(lobbyKey(code), ['phase', PENDING_PART]);
    if (doc === null) return undefined;
    const mark = doc.value[PENDING_PART];
    const phase = mark ? mark.before?.phase : doc.value.phase;
    if (phase === undefined && !mark) throw new Error('the live store holds something that is not a lobby');
    return phase ?? null;
  }

  /**
   * A guard (see PartGuard) that holds while readers see the lobby open: its phase not closed and
   * no durable change pending. Where it does not hold, `visiblePhase` says what readers see.
   */
  openGuard(code: string): PartGuard {
    return { key: lobbyKey(code), part: 'phase', oneOf: OPEN_PHASES, without: [PENDING_PART] };
  }

  /** Whether the lobby's creation is pending (see PendingMark): `load` answers null for it. */
  async creationPending(code: string): Promise<boolean> {
    const doc = await this.live.get(lobbyKey(code));
    return doc !== null && pendingOf(doc.value)?.before === null;
  }

  /** Whether Postgres's record holds `state`'s version (or a later one). */
  async holds(state: LobbyState): Promise<boolean> {
    const record = await this.records.load(state.code);
    return record !== null && record.version >= state.version;
  }

  /** Rebuilds the live document from Postgres; null when the lobby was never stored. */
  async restore(code: string): Promise<LoadedLobby | null> {
    const record = await this.records.load(code);
    if (!record) return null;
    const snapshot = parseLobby(record.snapshot);
    // Postgres holds the last saved version, not the last served one (the write-behind of
    // saveSoon may not have run): the rebuilt document goes above anything an earlier epoch could have served.
    const version = Math.max(snapshot.version, (await this.epoch()) * EPOCH_SPAN) + 1;
    const state: LobbyState = { ...snapshot, version };
    // The members' index entries are restored too, where nobody has written them since.
    const members = openMembers(state);
    const index = await this.live.getMany<string>(members.map(lobbyMemberKey));
    const indexWrites: CasWrite[] = members.flatMap((id, i) =>
      index[i] === null ? [{ key: lobbyMemberKey(id), expectedVersion: 0, value: code }] : [],
    );
    for (const writes of [[lobbyWrite(state, 0), ...indexWrites], [lobbyWrite(state, 0)]]) {
      const result = await this.live.compareAndSet(writes);
      if (result.ok) return { state, storeVersion: result.versions[0], restored: true };
      const doc = await this.live.get(lobbyKey(code));
      if (doc) return this.#loaded(doc);
    }
    return null;
  }

  /**
   * Writes a change of membership or phase before the command answers (see keepOrUndo, which
   * decides what happens to a change Postgres did not take). Postgres keeps the newest version
   * only; a newer state waiting behind is left to its own write.
   */
  async save(state: LobbyState): Promise<void> {
    const pending = this.#later.get(state.code);
    if (pending && pending.version <= state.version) this.#later.delete(state.code);
    await this.#write([state]);
  }

  /** A state that must reach Postgres and did not: retried behind until Postgres takes it. */
  retryBehind(state: LobbyState): void {
    this.logger.error({ code: state.code, version: state.version }, 'saving the lobby record failed; retrying behind');
    this.#retryLater([state]);
  }

  async #write(states: LobbyState[]): Promise<void> {
    await this.records.saveMany(states.map((state) => ({ code: state.code, phase: state.phase, hostId: state.hostId, version: state.version, snapshot: state })));
  }

  /** Puts states back in the write-behind queue (unless a newer one is there) and retries after a pause. */
  #retryLater(states: LobbyState[]): void {
    for (const state of states) {
      const pending = this.#later.get(state.code);
      if (!pending || pending.version < state.version) this.#later.set(state.code, state);
    }
    this.#timer ??= setTimeout(() => void this.flush(), RETRY_MS).unref();
  }

  readonly #later = new Map<string, LobbyState>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();

  /**
   * Write-behind: the lobby is saved within WRITE_BEHIND_MS, one write per lobby however many
   * changes came meanwhile (the newest wins; Postgres ignores an older version anyway). For the
   * changes that move nobody in or out and no phase (votes, classes, slots, ready flags, picks):
   * a hot lobby then costs at most a few Postgres writes a second, not one per command. What a
   * crash of this process loses is the last WRITE_BEHIND_MS of such changes, and only if the live
   * store loses the lobby as well.
   */
  saveSoon(state: LobbyState): void {
    const pending = this.#later.get(state.code);
    if (!pending || pending.version < state.version) this.#later.set(state.code, state);
    this.#timer ??= setTimeout(() => void this.flush(), WRITE_BEHIND_MS).unref();
  }

  /** Writes every pending write-behind save now (shutdown, tests); resolves once they are written. */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const due = [...this.#later.values()];
    this.#later.clear();
    // A statement per FLUSH_CHUNK lobbies, one after another: a statement per lobby was a burst
    // of queries, and one statement for all of them (serialising 4 KB a lobby) held the event loop
    // for milliseconds every WRITE_BEHIND_MS; each chunk's round trip lets commands run between.
    this.#flushing = this.#flushing.then(async () => {
      for (let at = 0; at < due.length; at += FLUSH_CHUNK) {
        const chunk = due.slice(at, at + FLUSH_CHUNK);
        await this.#write(chunk).catch((error: unknown) => {
          // Nothing written is given up: the states wait for the next try.
          this.logger.error({ err: error, codes: chunk.map((state) => state.code) }, 'saving lobby records failed; retrying');
          this.#retryLater(chunk);
        });
      }
    });
    return this.#flushing;
  }
}

/** The default lease of a pending durable change: well above the default database bound (3 s, +500 ms client-side). */
export const DEFAULT_DURABLE_LEASE_MS = 10_000;
/** How long a write-behind save may wait (see LobbyDocuments.saveSoon). */
export const WRITE_BEHIND_MS = 250;
/** The most lobbies one write-behind statement saves (see flush). */
const FLUSH_CHUNK = 8;
/** How long a failed lobby record write waits before it is tried again. */
const RETRY_MS = 1_000;
