import { notFound, type Outcome } from '../domain/domain-error';
import type { LobbyEvent, LobbyState } from '../domain/lobby';
import type { LiveStore } from '../live/live-store';
import { READ_AGAIN, retryOnConflict } from './cas-retry';
import { lobbyUpdates } from './lobby-broadcast';
import { lobbyDeadline } from './lobby-deadline';
import { lobbyKey } from './live-keys';
import { liveLobbyState, lobbyWrite, type LobbyDocuments } from './lobby-documents';
import { membershipWrites, type Committed, type ReadDocs } from './lobby-transaction';

export type LobbyRule = (state: LobbyState, docs: ReadDocs, now: number) => Outcome<LobbyState, LobbyEvent>;

interface Waiting {
  readKeys: string[];
  rule: LobbyRule;
  /** Sets the lobby's deadline with the write even when it did not move (the tick: see lobbyDeadline). */
  renewsDeadline: boolean;
  resolve(committed: Committed): void;
  reject(error: unknown): void;
}

interface Decided {
  waiting: Waiting;
  result: { ok: true; before: LobbyState; after: LobbyState; events: LobbyEvent[] } | { ok: false; error: unknown };
}

const MAX_BATCH = 64;

/**
 * Group commit: the commands to one lobby that queue up in this instance while its previous
 * compare-and-set is in flight are decided together, in arrival order, each on the state the
 * one before it left, and written with ONE compare-and-set. A hot lobby then costs two
 * live-store round trips per batch instead of per command; each command still gets its own
 * version (the rules bump it) and its own answer, and a refused command changes nothing for
 * the others. Across instances the compare-and-set still decides, and a lost race re-decides
 * the whole batch on fresh state.
 */
export class LobbyGroupCommit {
  readonly #queues = new Map<string, Waiting[]>();

  constructor(
    private readonly live: LiveStore,
    private readonly documents: LobbyDocuments,
    private readonly clock: () => number,
  ) {}

  run(code: string, readKeys: string[], rule: LobbyRule, options: { renewsDeadline?: boolean } = {}): Promise<Committed> {
    return new Promise((resolve, reject) => {
      const waiting = { readKeys, rule, renewsDeadline: options.renewsDeadline ?? false, resolve, reject };
      const queue = this.#queues.get(code);
      if (queue) {
        queue.push(waiting);
        return;
      }
      this.#queues.set(code, [waiting]);
      void this.#drain(code);
    });
  }

  async #drain(code: string): Promise<void> {
    for (;;) {
      const queue = this.#queues.get(code)!;
      if (queue.length === 0) {
        this.#queues.delete(code);
        return;
      }
      const batch = queue.splice(0, MAX_BATCH);
      // In the lobby's lane, so the commands that write more than the lobby (party-join, the
      // match record) never interleave with a batch of this instance.
      await this.documents.lanes.run(code, () => this.#commit(code, batch)).catch((error) => {
        for (const waiting of batch) waiting.reject(error);
      });
    }
  }

  async #commit(code: string, batch: Waiting[]): Promise<void> {
    let restored = false;
    // The engines' one compare-and-set loop (cas-retry.ts); a lost race re-decides the whole batch.
    await retryOnConflict<void>(this.live, async () => {
      const readKeys = [...new Set(batch.flatMap((w) => w.readKeys))];
      const [lobbyDoc, ...others] = await this.live.getMany([lobbyKey(code), ...readKeys]);
      if (lobbyDoc === null) {
        const loaded = await this.documents.restore(code);
        if (loaded === null) throw notFound('lobby not found');
        restored ||= loaded.restored;
        return READ_AGAIN;
      }
      const docs: ReadDocs = new Map(readKeys.map((key, i) => [key, others[i]]));
      const first = liveLobbyState(lobbyDoc.value);
      const now = this.clock();
      const decided = decideInOrder(batch, first, docs, now);
      const last = decided.reduce((state, d) => (d.result.ok ? d.result.after : state), first);
      const settle = (storeVersion: number, scheduled: boolean) => {
        for (const { waiting, result } of decided) {
          if (!result.ok) waiting.reject(result.error);
          else waiting.resolve({ ...result, changed: result.after !== result.before, now, storeVersion, restored, scheduled });
        }
      };
      if (last === first) return { writes: [], answer: () => settle(lobbyDoc.version, false) };
      let indexWrites;
      try {
        indexWrites = await membershipWrites(this.live, code, first, last, docs);
      } catch (error) {
        // A membership clash is one command's; alone, each command meets its own verdict.
        if (batch.length === 1) throw error;
        for (const waiting of batch) await this.#commit(code, [waiting]).catch((e) => waiting.reject(e));
        return { writes: [], value: undefined };
      }
      // Every version of the batch is announced, in order, in the same atomic step: see lobby-broadcast.
      const changes = decided.flatMap(({ result }) => (result.ok && result.after !== result.before ? [result.after] : []));
      // The deadline of the batch's last state, which is the one written, goes with the write.
      const renew = restored || batch.some((waiting) => waiting.renewsDeadline);
      return {
        writes: [lobbyWrite(last, lobbyDoc.version), ...indexWrites],
        publish: lobbyUpdates(changes, now),
        schedule: lobbyDeadline(first, last, now, renew),
        answer: (versions) => settle(versions[0], true),
      };
    });
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
