import { conflict, notFound, type Outcome } from '../domain/domain-error';
import { membershipChange, type LobbyEvent, type LobbyState } from '../domain/lobby';
import type { CasWrite, LiveStore, ReadGuard, VersionedDoc } from '../live/live-store';
import { READ_AGAIN, retryOnConflict } from './cas-retry';
import { lobbyUpdates } from './lobby-broadcast';
import { lobbyDeadline } from './lobby-deadline';
import { lobbyKey, lobbyMemberKey } from './live-keys';
import { awaitSettled, isDurable, keepOrUndo, pendingWrite, written, type LiveChange } from './durable-change';
import type { LobbyContext } from './lobby-context';
import { lobbyWrite, liveLobbyState, pendingOf } from './lobby-documents';

export type ReadDocs = ReadonlyMap<string, VersionedDoc<unknown> | null>;

export interface Decision {
  outcome: Outcome<LobbyState, LobbyEvent>;
  /** Written in the same compare-and-set as the lobby (a party's cleared invites). */
  extraWrites?: CasWrite[];
}

/** Decides on a fresh read: the lobby, the documents of the keys asked for, and the clock. */
export type Decide = (state: LobbyState, docs: ReadDocs, now: number) => Decision;

/** A command that went through: before and after (the same object when nothing changed). */
export interface Committed {
  before: LobbyState;
  after: LobbyState;
  events: LobbyEvent[];
  changed: boolean;
  now: number;
  /** The live store's version of the document after this command. */
  storeVersion: number;
  /** The lobby had to be rebuilt from Postgres on the way. */
  restored: boolean;
  /** The compare-and-set that wrote `after` also set its deadline as needed (see lobbyDeadline): nothing is left to schedule. */
  scheduled: boolean;
  /** Postgres holds `after` already (a durable change: see keepOrUndo); otherwise it is written behind. */
  saved: boolean;
}

/**
 * Load, apply, compare-and-set, retry on a lost race. The lobby document and the index entry of
 * every user who entered or left the open membership are written in ONE compare-and-set, which is
 * what keeps a user in at most one open lobby across lobbies and instances: entering requires the
 * entry to be still as read when the rule said yes.
 */
export function transact(
  ctx: Pick<LobbyContext, 'live' | 'documents' | 'clock' | 'logger' | 'rebuilt'>,
  code: string,
  readKeys: string[],
  decide: Decide,
  /** The decision rests on the membership index: waits for a rebuild under way (see LobbyContext.rebuilt). */
  options: { crossLobby?: boolean } = {},
): Promise<Committed> {
  const { live, documents, clock, logger } = ctx;
  const rebuilt = options.crossLobby ? ctx.rebuilt : undefined;
  return documents.lanes.run(code, async () => {
    let restored = false;
    const step = await retryOnConflict<Committed | { change: LiveChange; events: LobbyEvent[]; now: number; durable: boolean }>(live, async () => {
      // Before the reads: what they find of the index is complete.
      const whole = rebuilt && (await rebuilt());
      const [lobbyDoc, ...read] = await live.getMany([lobbyKey(code), ...readKeys]);
      if (lobbyDoc === null) {
        const loaded = await documents.restore(code);
        if (loaded === null) throw notFound('lobby not found');
        restored ||= loaded.restored;
        return READ_AGAIN;
      }
      if (pendingOf(lobbyDoc.value)) {
        // A durable change is pending: nothing is decided on it until it is kept or taken back.
        await awaitSettled(live, documents, logger, code, lobbyDoc, clock());
        return READ_AGAIN;
      }
      const docs: ReadDocs = new Map(readKeys.map((key, i) => [key, read[i]]));
      const before = liveLobbyState(lobbyDoc.value);
      const now = clock();
      const { outcome, extraWrites = [] } = decide(before, docs, now);
      if (!outcome.ok) throw outcome.error;
      const after = outcome.state;
      if (after === before && extraWrites.length === 0) {
        return { writes: [], value: { before, after, events: [], changed: false, now, storeVersion: lobbyDoc.version, restored, scheduled: false, saved: false } };
      }
      const others = [
        ...(await membershipWrites(live, code, before, after, docs)),
        ...extraWrites.map((write) => ({ write, prior: docs.get(write.key)?.value ?? null })),
      ];
      // Watchers hear of the change in the same atomic step (see lobby-broadcast); of a durable
      // one only once Postgres holds it (the write is pending until then: see keepOrUndo).
      const durable = after !== before && isDurable(outcome.events);
      const publish = after !== before ? lobbyUpdates([{ before, after }], now) : undefined;
      const schedule = after !== before ? lobbyDeadline(before, after, now, restored) : undefined;
      // A decision that leaves the lobby as it is writes only the other keys (the lobby is guarded).
      const lobby = after === before ? [] : [durable ? pendingWrite(lobbyWrite(after, lobbyDoc.version), before, others, documents.leaseMs) : lobbyWrite(after, lobbyDoc.version)];
      return {
        writes: [...lobby, ...others.map((other) => other.write)],
        guards: [...(whole ? [whole] : []), ...(lobby.length === 0 ? [{ key: lobbyKey(code), expectedVersion: lobbyDoc.version }] : [])],
        ...(durable ? {} : { publish, schedule }),
        answer: (versions) => ({
          change: {
            before, after, storeVersion: lobby.length > 0 ? versions[0] : lobbyDoc.version, publish, schedule,
            others: others.map((other, i) => written(other.write, other.prior, versions[lobby.length + i])),
          },
          events: outcome.events,
          now,
          durable,
        }),
      };
    });
    if (!('change' in step)) return step;
    // `durable`: the decision's own reading (the write is pending exactly when it is), not worked out again.
    const { change, events, now, durable: saved } = step;
    const changed = change.after !== change.before;
    // Still in the lobby's lane: no command of this instance builds on the change before it is durable or taken back.
    const storeVersion = saved ? await keepOrUndo(live, documents, logger, change, now) : change.storeVersion;
    return { before: change.before!, after: change.after, events, changed, now, storeVersion, restored, scheduled: changed, saved };
  });
}

/** Index writes for users who entered (-> code) or left (-> deleted) the lobby's open membership, each with the value it replaces. */
export async function membershipWrites(live: LiveStore, code: string, before: LobbyState, after: LobbyState, read: ReadDocs): Promise<IndexWrite[]> {
  const { joined, left } = membershipChange(before, after);
  if (joined.length === 0 && left.length === 0) return [];
  const keys = [...joined, ...left].map(lobbyMemberKey);
  const unread = keys.filter((key) => !read.has(key));
  const fetched = unread.length > 0 ? await live.getMany(unread) : [];
  const docs = new Map(read);
  unread.forEach((key, i) => docs.set(key, fetched[i]));

  const writes: IndexWrite[] = [];
  for (const id of joined) {
    const key = lobbyMemberKey(id);
    const doc = docs.get(key) ?? null;
    // Entries read before the decision were judged by the rule; any other must be free.
    if (!read.has(key) && doc !== null && doc.value !== code) throw conflict('already in another lobby');
    writes.push({ write: { key, expectedVersion: doc?.version ?? 0, value: code }, prior: doc?.value ?? null });
  }
  for (const id of left) {
    const doc = docs.get(lobbyMemberKey(id)) ?? null;
    if (doc !== null && doc.value === code) writes.push({ write: { key: lobbyMemberKey(id), expectedVersion: doc.version, value: null }, prior: code });
  }
  return writes;
}

/** An index write and the value it replaces (for taking it back: see keepOrUndo). */
export interface IndexWrite {
  write: CasWrite;
  prior: unknown;
}
