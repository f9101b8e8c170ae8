import { conflict, notFound, type Outcome } from '../domain/domain-error';
import { openMembers, type LobbyEvent, type LobbyState } from '../domain/lobby';
import type { CasWrite, LiveStore, VersionedDoc } from '../live/live-store';
import { READ_AGAIN, retryOnConflict } from './cas-retry';
import { lobbyUpdates } from './lobby-broadcast';
import { lobbyDeadline } from './lobby-deadline';
import { lobbyKey, lobbyMemberKey } from './live-keys';
import { lobbyWrite, liveLobbyState, type LobbyDocuments } from './lobby-documents';

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
}

/**
 * Load, apply, compare-and-set, retry on a lost race. The lobby document and the index entry of
 * every user who entered or left the open membership are written in ONE compare-and-set, which is
 * what keeps a user in at most one open lobby across lobbies and instances: entering requires the
 * entry to be still as read when the rule said yes.
 */
export function transact(
  live: LiveStore,
  documents: LobbyDocuments,
  clock: () => number,
  code: string,
  readKeys: string[],
  decide: Decide,
): Promise<Committed> {
  return documents.lanes.run(code, () => {
    let restored = false;
    return retryOnConflict<Committed>(live, async () => {
      const [lobbyDoc, ...others] = await live.getMany([lobbyKey(code), ...readKeys]);
      if (lobbyDoc === null) {
        const loaded = await documents.restore(code);
        if (loaded === null) throw notFound('lobby not found');
        restored ||= loaded.restored;
        return READ_AGAIN;
      }
      const docs: ReadDocs = new Map(readKeys.map((key, i) => [key, others[i]]));
      const before = liveLobbyState(lobbyDoc.value);
      const now = clock();
      const { outcome, extraWrites = [] } = decide(before, docs, now);
      if (!outcome.ok) throw outcome.error;
      const after = outcome.state;
      const changed = after !== before;
      if (!changed && extraWrites.length === 0) {
        return { writes: [], value: { before, after, events: [], changed, now, storeVersion: lobbyDoc.version, restored, scheduled: false } };
      }
      const indexWrites = await membershipWrites(live, code, before, after, docs);
      return {
        writes: [...(changed ? [lobbyWrite(after, lobbyDoc.version)] : []), ...indexWrites, ...extraWrites],
        // Watchers hear of the change in the same atomic step: see lobby-broadcast.
        publish: changed ? lobbyUpdates([after], now) : undefined,
        schedule: changed ? lobbyDeadline(before, after, now, restored) : undefined,
        answer: (versions) => ({
          before, after, events: outcome.events, changed, now, storeVersion: changed ? versions[0] : lobbyDoc.version, restored, scheduled: changed,
        }),
      };
    });
  });
}

/** Index writes for users who entered (-> code) or left (-> deleted) the lobby's open membership. */
export async function membershipWrites(live: LiveStore, code: string, before: LobbyState, after: LobbyState, read: ReadDocs): Promise<CasWrite[]> {
  const was = new Set(openMembers(before));
  const is = new Set(openMembers(after));
  const joined = [...is].filter((id) => !was.has(id));
  const left = [...was].filter((id) => !is.has(id));
  if (joined.length === 0 && left.length === 0) return [];
  const keys = [...joined, ...left].map(lobbyMemberKey);
  const unread = keys.filter((key) => !read.has(key));
  const fetched = unread.length > 0 ? await live.getMany(unread) : [];
  const docs = new Map(read);
  unread.forEach((key, i) => docs.set(key, fetched[i]));

  const writes: CasWrite[] = [];
  for (const id of joined) {
    const key = lobbyMemberKey(id);
    const doc = docs.get(key) ?? null;
    // Entries read before the decision were judged by the rule; any other must be free.
    if (!read.has(key) && doc !== null && doc.value !== code) throw conflict('already in another lobby');
    writes.push({ key, expectedVersion: doc?.version ?? 0, value: code });
  }
  for (const id of left) {
    const doc = docs.get(lobbyMemberKey(id)) ?? null;
    if (doc !== null && doc.value === code) writes.push({ key: lobbyMemberKey(id), expectedVersion: doc.version, value: null });
  }
  return writes;
}
