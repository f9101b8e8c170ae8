import { KeyedSlots } from '../collections/keyed-slots';
import { notFound, type Outcome } from '../domain/domain-error';
import type { LobbyEvent, LobbyState } from '../domain/lobby';
import type { LiveStore, ReadGuard, VersionedDoc } from '../live/live-store';
import { READ_AGAIN, retryOnConflict, type CommitFailure } from './cas-retry';
import type { CommandLimit, EngineLogger } from './engine-ports';
import { awaitSettled, isDurable, keepOrUndo, pendingWrite, written, type LiveChange } from './durable-change';
import { lobbyUpdates, type LobbyChange } from './lobby-broadcast';
import { LobbyUpdateRenderer } from './lobby-update-renderer';
import { lobbyDeadline } from './lobby-deadline';
import { lobbyKey } from './live-keys';
import { liveLobbyState, lobbyWrite, pendingOf, type LobbyDocuments } from './lobby-documents';
import { membershipWrites, type Committed, type ReadDocs } from './lobby-transaction';

export type LobbyRule = (state: LobbyState, docs: ReadDocs, now: number) => Outcome<LobbyState, LobbyEvent>;

interface Waiting {
  readKeys: string[];
  rule: LobbyRule;
  /** Sets the lobby's deadline with the write even when it did not move (the tick: see lobbyDeadline). */
  renewsDeadline: boolean;
  /** The user's limit, counted in the batch's commit; `counted` once a commit counted it. */
  limit: CommandLimit | undefined;
  counted: boolean;
  /** Decided on the membership index (join): waits for a rebuild under way and commits guarded (see LobbyContext.rebuilt). */
  crossLobby: boolean;
  resolve(committed: Committed): void;
  reject(error: unknown): void;
}

/** One lobby's commands waiting for their batch, and the document as this instance last wrote or read it (any may be stale: the commit checks). */
interface LobbySlot {
  waiting: Waiting[];
  /** A drain loop runs for the lobby: a new command only joins the queue. */
  draining: boolean;
  known: VersionedDoc<LobbyState> | undefined;
}

interface Decided {
  waiting: Waiting;
  result: { ok: true; before: LobbyState; after: LobbyState; events: LobbyEvent[] } | { ok: false; error: unknown };
}

const MAX_BATCH = 64;
/** Lobbies whose last state this instance keeps before idle ones are swept (see `#lobbies`): more than are busy at once, few enough to cost a few MB. */
const KNOWN_CAPACITY = 1_000;

/**
 * Group commit: the commands to one lobby that queue up in this instance while its previous
 * compare-and-set is in flight are decided together, in arrival order, each on the state the
 * one before it left, and written with ONE compare-and-set. A hot lobby then costs two
 * live-store round trips per batch instead of per command; each command still gets its own
 * version (the rules bump it) and its own answer, and a refused command changes nothing for
 * the others. Across instances the compare-and-set still decides, and a lost race re-decides
 * the whole batch on fresh state.
 *
 * One round trip per batch in the common case: the batch is decided on the lobby as this instance
 * last wrote or read it, and ONE commit counts the users' limit hits, checks that the lobby is
 * still at that version and writes the parts that changed. If another instance moved the lobby
 * meanwhile, the commit's conflict answers the lobby as it is now and the batch is decided again
 * on that (a second round trip, no extra read). A refusal or a no-op decided on the remembered
 * state is answered only once a commit has confirmed that state is current.
 */
export class LobbyGroupCommit {
  /** Per lobby, in place between commands (see KeyedSlots): what waits, and what this instance knows. */
  readonly #lobbies = new KeyedSlots<string, LobbySlot>(
    () => ({ waiting: [], draining: false, known: undefined }),
    (slot) => !slot.draining && slot.waiting.length === 0,
    KNOWN_CAPACITY,
  );
  /** Lobbies found stored in one piece (by an older version): written in full parts once, then in parts. */
  readonly #whole = new Set<string>();
  /** The batches' `lobby:update` feed bodies: deltas from what this instance published, the unchanged teams' and pool's JSON kept (see LobbyUpdateRenderer). */
  readonly #updates = new LobbyUpdateRenderer();

  constructor(
    private readonly live: LiveStore,
    private readonly documents: LobbyDocuments,
    private readonly clock: () => number,
    private readonly logger: EngineLogger,
    private readonly rebuilt?: () => Promise<ReadGuard>,
  ) {}

  run(
    code: string,
    readKeys: string[],
    rule: LobbyRule,
    options: { renewsDeadline?: boolean; limit?: CommandLimit; crossLobby?: boolean } = {},
  ): Promise<Committed> {
    return new Promise((resolve, reject) => {
      const waiting = {
        readKeys, rule, renewsDeadline: options.renewsDeadline ?? false, limit: options.limit, counted: false, crossLobby: options.crossLobby ?? false,
        resolve, reject,
      };
      const slot = this.#lobbies.slot(code);
      slot.waiting.push(waiting);
      if (slot.draining) return;
      slot.draining = true;
      void this.#drain(code, slot);
    });
  }

  async #drain(code: string, slot: LobbySlot): Promise<void> {
    for (;;) {
      if (slot.waiting.length === 0) {
        slot.draining = false;
        return;
      }
      // The whole queue when it fits: the next commands start a new array rather than reuse this one.
      const batch = slot.waiting.length <= MAX_BATCH ? slot.waiting : slot.waiting.splice(0, MAX_BATCH);
      if (batch === slot.waiting) slot.waiting = [];
      // In the lobby's lane, so the commands that write more than the lobby (party-join, the
      // match record) never interleave with a batch of this instance.
      await this.documents.lanes.run(code, () => this.#commit(code, batch)).catch((error) => {
        for (const waiting of batch) waiting.reject(error);
      });
    }
  }

  async #commit(code: string, batch: Waiting[]): Promise<void> {
    try {
      await this.#commitOnce(code, batch);
    } catch (error) {
      // A lobby an older version stored in one piece: rewritten whole (in parts) once.
      if (!(error instanceof Error && error.message.includes('WRONGFORM')) || this.#whole.has(code)) throw error;
      this.#whole.add(code);
      try {
        await this.#commitOnce(code, batch);
      } finally {
        this.#whole.delete(code);
      }
    }
  }

  async #commitOnce(code: string, batch: Waiting[]): Promise<void> {
    let restored = false;
    let pending = batch;
    /** The commands whose limit hits the last commit carried, in order. */
    let hitters: Waiting[] = [];
    // The engines' one compare-and-set loop (cas-retry.ts); a lost race re-decides the whole batch.
    const wrote = await retryOnConflict<Wrote | undefined>(this.live, async (_attempt, failed) => {
      pending = this.#learn(code, pending, hitters, failed);
      if (pending.length === 0) return { writes: [], value: undefined };
      // Before the reads: what they find of the membership index is complete.
      const whole = this.rebuilt && pending.some((w) => w.crossLobby) ? [await this.rebuilt()] : [];
      const readKeys = readKeysOf(pending);
      let lobbyDoc = readKeys.length === 0 ? this.#lobbies.peek(code)?.known : undefined;
      const fresh = lobbyDoc === undefined;
      let docs: ReadDocs = new Map();
      if (lobbyDoc === undefined) {
        const [read, ...others] = await this.live.getMany<LobbyState>([lobbyKey(code), ...readKeys]);
        docs = new Map(readKeys.map((key, i) => [key, others[i]]));
        if (read === null) {
          this.#forget(code);
          const loaded = await this.documents.restore(code);
          if (loaded === null) throw notFound('lobby not found');
          restored ||= loaded.restored;
          return READ_AGAIN;
        }
        if (pendingOf(read.value)) {
          // Another instance's durable change is pending: nothing is decided on it until it is kept or taken back.
          await awaitSettled(this.live, this.documents, this.logger, code, read, this.clock());
          return READ_AGAIN;
        }
        lobbyDoc = { version: read.version, value: liveLobbyState(read.value) };
        this.#remember(code, lobbyDoc);
      }
      const { version: storeVersion, value: first } = lobbyDoc;
      const now = this.clock();
      const decided = decideInOrder(pending, first, docs, now);
      const last = decided.reduce((state, d) => (d.result.ok ? d.result.after : state), first);
      hitters = pending.filter((waiting) => waiting.limit !== undefined && !waiting.counted);
      const hits = hitters.map((waiting) => waiting.limit!.hit);
      if (last === first) {
        // Decided on a remembered state: answered once the commit finds it current.
        return {
          writes: [], hits, guards: fresh ? [] : [{ key: lobbyKey(code), expectedVersion: storeVersion }],
          answer: () => {
            settle(decided, { now, storeVersion, restored, scheduled: false, saved: false });
            return undefined;
          },
        };
      }
      let indexWrites;
      try {
        indexWrites = await membershipWrites(this.live, code, first, last, docs);
      } catch (error) {
        // A membership clash is one command's; alone, each command meets its own verdict.
        if (pending.length === 1) throw error;
        for (const waiting of pending) await this.#commit(code, [waiting]).catch((e) => waiting.reject(e));
        return { writes: [], value: undefined };
      }
      // Every version of the batch is announced, in order, in the same atomic step: see lobby-broadcast.
      const changes = changesOf(decided);
      // The deadline of the batch's last state, which is the one written, goes with the write.
      const renew = restored || pending.some((waiting) => waiting.renewsDeadline);
      const publish = lobbyUpdates(changes, now, this.#updates.body);
      const schedule = lobbyDeadline(first, last, now, renew);
      const lobby = lobbyWrite(last, storeVersion, this.#whole.has(code) ? undefined : first);
      // A durable change is written pending, announced and scheduled only once Postgres holds it (keepOrUndo).
      const durable = decided.some(({ result }) => result.ok && isDurable(result.events));
      return {
        writes: [durable ? pendingWrite(lobby, first, indexWrites, this.documents.leaseMs) : lobby, ...indexWrites.map((index) => index.write)],
        guards: whole,
        hits,
        ...(durable ? {} : { publish, schedule }),
        answer: (versions) => ({
          decided, now, durable,
          change: {
            before: first, after: last, storeVersion: versions[0], publish, schedule,
            others: indexWrites.map((index, i) => written(index.write, index.prior, versions[1 + i])),
          },
        }),
      };
    });
    if (wrote === undefined) return;
    const { decided, now, change, durable: saved } = wrote;
    let storeVersion = change.storeVersion;
    if (saved) {
      try {
        // In the lobby's lane: no batch of this instance builds on the change before it is durable or taken back.
        storeVersion = await keepOrUndo(this.live, this.documents, this.logger, change, now);
      } catch (error) {
        // The whole batch was one write: taken back as one, every command answers the error.
        this.#forget(code);
        for (const { waiting } of decided) waiting.reject(error);
        return;
      }
    }
    this.#remember(code, { version: storeVersion, value: change.after });
    settle(decided, { now, storeVersion, restored, scheduled: true, saved });
  }

  /**
   * What the last commit's failure teaches: refused limits reject their commands (the others'
   * hits were not counted); a conflict counted every hit and brings the lobby as it is now.
   * Answers the commands still to decide.
   */
  #learn(code: string, pending: Waiting[], hitters: Waiting[], failed: CommitFailure | null): Waiting[] {
    if (failed === null) return pending;
    if ('refused' in failed) {
      const refused = new Set<Waiting>();
      failed.refused.forEach((verdict, i) => {
        if (verdict.allowed) return;
        refused.add(hitters[i]);
        hitters[i].reject(hitters[i].limit!.refuse(verdict));
      });
      return pending.filter((waiting) => !refused.has(waiting));
    }
    for (const waiting of hitters) waiting.counted = true;
    const now = failed.current.get(lobbyKey(code));
    // A lobby with a durable change pending is read again, and waited for (see awaitSettled).
    if (now && !pendingOf(now.value)) this.#remember(code, { version: now.version, value: liveLobbyState(now.value) });
    else this.#forget(code);
    return pending;
  }

  #remember(code: string, doc: VersionedDoc<LobbyState>): void {
    this.#lobbies.slot(code).known = doc;
  }

  #forget(code: string): void {
    const slot = this.#lobbies.peek(code);
    if (slot) slot.known = undefined;
  }
}

/** A batch's commit went through: what was decided, and the change as keepOrUndo needs it. */
interface Wrote {
  decided: Decided[];
  now: number;
  /** The batch made a durable change: written pending (see pendingWrite). */
  durable: boolean;
  change: LiveChange;
}

/** Answers each command of a batch: its refusal, or its change as the batch's commit left it. */
function settle(decided: Decided[], written: Omit<Committed, 'before' | 'after' | 'events' | 'changed'>): void {
  for (const { waiting, result } of decided) {
    if (!result.ok) waiting.reject(result.error);
    else {
      // Spelled out rather than spread: one object of one shape per command, on the hot path.
      const { before, after, events } = result;
      const { now, storeVersion, restored, scheduled, saved } = written;
      waiting.resolve({ before, after, events, changed: after !== before, now, storeVersion, restored, scheduled, saved });
    }
  }
}

function decideInOrder(batch: Waiting[], first: LobbyState, docs: ReadDocs, now: number): Decided[] {
  let state = first;
  return batch.map((waiting) => {
    try {
      const outcome = waiting.rule(state, docs, now);
      if (!outcome.ok) return { waiting, result: { ok: false, error: outcome.error } };
      const before = state;
      state = outcome.state;
      return { waiting, result: { ok: true, before, after: outcome.state, events: outcome.events } };
    } catch (error) {
      return { waiting, result: { ok: false, error } };
    }
  });
}

// Loops, not flatMap: these run once per commit, and flatMap's arrays per element cost a lobby command more than 1% of its CPU.
/** The keys the batch's commands read besides the lobby, each once. */
function readKeysOf(batch: readonly Waiting[]): string[] {
  const keys: string[] = [];
  for (const waiting of batch) for (const key of waiting.readKeys) if (!keys.includes(key)) keys.push(key);
  return keys;
}

/** The batch's changes of state, in order: what its commit announces. */
function changesOf(decided: readonly Decided[]): LobbyChange[] {
  const changes: LobbyChange[] = [];
  for (const { result } of decided) if (result.ok && result.after !== result.before) changes.push({ before: result.before, after: result.after });
  return changes;
}
