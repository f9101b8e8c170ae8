import { machineTime } from '../clock/machine-time';
import { LiveStoreUnavailable } from '../live/live-store-unavailable';
import type { LobbyEvent, LobbyState } from '../domain/lobby';
import type { CasWrite, DueEntry, LiveStore, Publication, VersionedDoc } from '../live/live-store';
import type { EngineLogger } from './engine-ports';
import { lobbyUpdates } from './lobby-broadcast';
import { lobbyDeadline } from './lobby-deadline';
import { liveLobbyState, lobbyWrite, PENDING_PART, pendingOf, type LobbyDocuments, type PendingMark } from './lobby-documents';
import { lobbyKey } from './live-keys';

/** A key a commit wrote beside the lobby: its value before the commit (null: absent) and the version the commit gave it. */
export interface WrittenKey {
  key: string;
  prior: unknown;
  version: number;
}

/** A durable change committed to the live store with its pending mark: what is needed to make it visible or take it back. */
export interface LiveChange {
  /** The lobby before the commit; null when the commit created it. */
  before: LobbyState | null;
  after: LobbyState;
  /** The lobby document's store version after the commit (the marked document). */
  storeVersion: number;
  others: WrittenKey[];
  /** What the change announces and the deadline it sets, once Postgres holds it (see keepOrUndo). */
  publish?: Publication;
  schedule?: DueEntry;
}

/** A write `write` made on a document whose value was `prior`, with the version the commit gives it. */
export function written(write: CasWrite, prior: unknown, version: number): WrittenKey {
  return { key: write.key, prior: prior ?? null, version };
}

/**
 * Membership and phase (what a change's events report) are part of the durable record, as is a
 * creation (LobbyEngine.create): acknowledged only once Postgres holds them. Everything else a
 * command changes (votes, classes, slots, ready flags) is written behind (LobbyDocuments.saveSoon).
 */
export function isDurable(events: readonly LobbyEvent[]): boolean {
  return events.length > 0;
}

/**
 * The lobby write of a durable change, carrying its pending mark (see PendingMark): committed
 * without announcing or scheduling anything; `others` are the keys written beside it, with the
 * values they replace, so that whoever settles the change can take them back too.
 */
export function pendingWrite(
  lobby: CasWrite,
  before: LobbyState | null,
  others: ReadonlyArray<{ write: CasWrite; prior: unknown }>,
  leaseMs: number,
): CasWrite {
  const mark: PendingMark = {
    until: machineTime.wall() + leaseMs,
    before,
    others: others.map(({ write, prior }) => written(write, prior, write.value === null ? 0 : write.expectedVersion + 1)),
  };
  const parts = Array.isArray(lobby.parts) ? [...lobby.parts, PENDING_PART] : lobby.parts;
  return { ...lobby, value: { ...(lobby.value as LobbyState), [PENDING_PART]: mark }, parts };
}

/**
 * Makes a durable change, committed to the live store with its pending mark, durable or takes it
 * back, before the command answers (issue 21). Nobody builds on a marked lobby (see awaitSettled),
 * and it was announced to nobody, so:
 * - Postgres takes it: the mark is cleared, and the change announced and its deadline set, in one
 *   step; answers the lobby's store version after that step;
 * - Postgres does not: the lobby is put back as it was, one version past the refused one and
 *   announced to nobody, the other keys as they were, and the mark cleared, in one step; the
 *   state put back is written behind (Postgres may have taken the refused write and only its
 *   answer was lost: the newer version replaces it). Throws the save's error (503), and the
 *   command changed nothing anyone could see.
 * If the live store fails in that last step, the mark stays until its lease ends and the next
 * command on the lobby settles it by Postgres's record (settleExpired).
 */
export async function keepOrUndo(live: LiveStore, documents: LobbyDocuments, logger: EngineLogger, change: LiveChange, now: number): Promise<number> {
  try {
    await documents.save(change.after);
  } catch (error) {
    await undo(live, documents, change).catch((undoError: unknown) => {
      logger.error({ err: undoError, code: change.after.code }, 'taking back a lobby change failed; the next command settles it when its lease ends');
    });
    throw error;
  }
  const kept = await keep(live, change);
  if (kept !== null) return kept;
  // The lease ended before Postgres answered, and another instance settled the change already.
  const doc = await live.get(lobbyKey(change.after.code));
  const state = doc && liveLobbyState(doc.value);
  if (doc && state!.version === change.after.version && pendingOf(doc.value) === null) return doc.version;
  throw new LiveStoreUnavailable('the lobby change was taken back while its database write was slow');
}

/** Clears the mark, announcing the change and setting its deadline; null when the document moved (someone settled it). */
async function keep(live: LiveStore, change: LiveChange): Promise<number | null> {
  const { after, storeVersion, publish, schedule } = change;
  const clear = lobbyWrite(after, storeVersion, after);
  const result = await live.compareAndSet([{ ...clear, parts: [PENDING_PART] }], publish, schedule);
  return result.ok ? result.versions[0] : null;
}

/**
 * Puts the lobby (and the keys written beside it) back as they were before the change, clearing
 * the mark, in one step that announces nothing: nobody saw the change. An index entry someone
 * else moved since is theirs and stays as it is.
 */
async function undo(live: LiveStore, documents: LobbyDocuments, change: LiveChange): Promise<boolean> {
  const { before, after, storeVersion } = change;
  const back = before && { ...before, version: after.version + 1 };
  const lobby: CasWrite = back ? lobbyWrite(back, storeVersion) : { key: lobbyKey(after.code), expectedVersion: storeVersion, value: null };
  let others = change.others;
  for (let round = 0; round < 3; round++) {
    const result = await live.commit({ writes: [lobby, ...others.map((key) => ({ key: key.key, expectedVersion: key.version, value: key.prior }))] });
    if (result.ok) {
      if (back) documents.saveSoon(back);
      return true;
    }
    if (!('current' in result) || result.conflictKey === lobby.key) return false;
    others = others.filter((key) => result.current.get(key.key)?.version === key.version || (key.version === 0 && !result.current.get(key.key)));
  }
  return false;
}

/** How often a command that met a pending change reads the lobby again. */
const SETTLED_POLL_MS = 20;

/**
 * A command read its lobby with a durable change pending (see PendingMark): it must not build on
 * it, so it waits until the change is kept or taken back, then reads again. A mark whose lease
 * has ended (its process died, or lost the live store) is settled here by Postgres's record: kept
 * when Postgres holds the change's version, taken back otherwise. Throws Postgres's error (503)
 * when that check cannot be made.
 */
export async function awaitSettled(
  live: LiveStore,
  documents: LobbyDocuments,
  logger: EngineLogger,
  code: string,
  doc: VersionedDoc<unknown>,
  now: number,
): Promise<void> {
  let current: VersionedDoc<unknown> | null = doc;
  for (;;) {
    const mark = current && pendingOf(current.value);
    if (!current || !mark || current.version !== doc.version) return;
    if (machineTime.wall() > mark.until) {
      await settleExpired(live, documents, logger, current, mark, now);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLED_POLL_MS));
    current = await live.get(lobbyKey(code));
  }
}

async function settleExpired(live: LiveStore, documents: LobbyDocuments, logger: EngineLogger, doc: VersionedDoc<unknown>, mark: PendingMark, now: number): Promise<void> {
  const { [PENDING_PART]: _mark, ...rest } = doc.value as Record<string, unknown>;
  const after = liveLobbyState(rest);
  const change: LiveChange = {
    before: mark.before, after, storeVersion: doc.version, others: mark.others,
    publish: lobbyUpdates([{ before: null, after }], now), schedule: lobbyDeadline(mark.before ?? after, after, now, true),
  };
  const held = await documents.holds(after);
  logger.error({ code: after.code, version: after.version, kept: held }, 'a durable lobby change outlived its lease; settled by the database record');
  if (held) await keep(live, change);
  else await undo(live, documents, change);
}
