import {
  isClosed, lobbySummary, nextDeadline, type LobbyCommandType, type LobbyState, type LobbySummary,
} from '../domain/lobby';
import type { LiveStore } from '../live/live-store';
import type { EngineLogger } from './engine-ports';
import { publishLobbies } from './lobby-broadcast';
import { LOBBY_DEADLINES, lobbyChatKey, lobbyKey, OPEN_LOBBIES } from './live-keys';
import { CLOSED_LOBBY_TTL_MS, visibleLobby, type LiveLobby, type LobbyDocuments } from './lobby-documents';
import type { Committed } from './lobby-transaction';
import { Rerun } from './rerun';

export interface LobbyEffectsDeps {
  live: LiveStore;
  documents: LobbyDocuments;
  clock: () => number;
  logger: EngineLogger;
  /** Drops a public-cache topic in every instance. */
  invalidate: (topic: 'lobbies' | 'matches') => void;
  summaries: () => Promise<LobbySummary[]>;
}

/**
 * Everything a committed change causes beyond the live document: the open lobby list, the durable deadline, the Postgres record. Run after the compare-and-set, before
 * the response.
 */
export class LobbyEffects {
  readonly #lobbiesFeed: Rerun;

  constructor(private readonly deps: LobbyEffectsDeps) {
    // Many changes in a burst cost one listing: a refresh asked for while one runs runs once after it.
    this.#lobbiesFeed = new Rerun(async () => publishLobbies(deps.live, await deps.summaries()), (error) =>
      deps.logger.error({ err: error }, 'refreshing the lobby list failed'),
    );
  }

  /** The push to watchers went out with the compare-and-set itself (see lobby-broadcast). */
  async committed(c: Committed, type: LobbyCommandType | 'create'): Promise<void> {
    const { before, after, now } = c;
    const work: Promise<void>[] = [];
    if (c.restored || type === 'create') work.push(this.track(after));
    if (c.changed && (type === 'create' || summaryChanged(before, after))) work.push(this.listChanged(before, after));
    // A commit that wrote the lobby set its deadline with the write (see lobbyDeadline).
    if (!c.scheduled && (type === 'tick' || c.restored || nextDeadline(before, now) !== nextDeadline(after, now))) {
      work.push(this.schedule(after, c.storeVersion));
    }
    // Every change is persisted, whatever the command: a durable one (membership, phase) was
    // written before its commit answered (see keepOrUndo); any other (votes, classes, slots, picks,
    // ready flags) is written behind, coalesced per lobby.
    if (c.changed && !c.saved) this.deps.documents.saveSoon(after);
    await Promise.all(work);
  }

  /** A lobby rebuilt from Postgres gets its list entry and its deadline back. */
  async restored(lobby: LiveLobby): Promise<void> {
    await Promise.all([this.track(lobby.state), this.schedule(lobby.state, lobby.storeVersion)]);
  }

  /** Puts a lobby (new or rebuilt) into the open list. */
  async track(state: LobbyState): Promise<void> {
    if (!isClosed(state.phase)) await this.deps.live.scoreSet(OPEN_LOBBIES, state.code, state.createdAt);
  }

  async listChanged(before: LobbyState, after: LobbyState): Promise<void> {
    if (isClosed(after.phase) && !isClosed(before.phase)) {
      await this.untrack(after.code);
      await this.deps.live.expire(lobbyChatKey(after.code), CLOSED_LOBBY_TTL_MS);
    }
    this.deps.invalidate('lobbies');
    this.#lobbiesFeed.run();
  }

  async untrack(code: string): Promise<void> {
    await this.deps.live.scoreSet(OPEN_LOBBIES, code, -1);
    await this.deps.live.scoreRemoveBelow(OPEN_LOBBIES, 0);
  }

  /**
   * Schedules the lobby's next deadline, for states no compare-and-set of ours set it with (a tick
   * that changed nothing, a lobby rebuilt from Postgres). A newer commit may have set its deadline
   * just before ours arrives; so after scheduling, a newer document means we may have overtaken it,
   * and the schedule is taken again from the newest state.
   */
  async schedule(state: LobbyState, storeVersion: number): Promise<void> {
    const { live, clock } = this.deps;
    let current = state;
    let version = storeVersion;
    for (let round = 0; round < 3; round++) {
      const due = nextDeadline(current, clock());
      if (due !== null) await live.schedule(LOBBY_DEADLINES, current.code, due);
      const doc = await live.get(lobbyKey(current.code));
      if (doc === null || doc.version === version) return;
      // A durable change pending sets its own deadline when it is kept (see keepOrUndo).
      const visible = visibleLobby(doc.value);
      if (visible === null) return;
      current = visible;
      version = doc.version;
    }
  }

  /** Resolves when the lobby list refresh in flight (if any) is done and the write-behind saves are written: for orderly shutdown and tests. */
  idle(): Promise<void> {
    return Promise.all([this.#lobbiesFeed.idle(), this.deps.documents.flush()]).then(() => undefined);
  }
}

/** What of a lobby's list entry can change after creation: its phase and how many are in it. */
function summaryChanged(before: LobbyState, after: LobbyState): boolean {
  // The listed counts come from these parts alone, which a change shares with the state before where it left them.
  if (before.phase === after.phase && before.pool === after.pool && before.teams === after.teams) return false;
  const a = lobbySummary(before);
  const b = lobbySummary(after);
  return a.phase !== b.phase || a.players !== b.players || a.slots_filled !== b.slots_filled;
}
