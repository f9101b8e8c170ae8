import { randomBytes as secureRandomBytes } from 'node:crypto';
import { machineTime } from '../clock/machine-time';
import { invalid, notFound } from '../domain/domain-error';
import {
  applyLobbyCommand, createLobby, isClientCommandType, isClosed, lobbyDetail, lobbySummary, myVote,
  voteCounts, type LobbyChatMessage, type LobbyCommand, type LobbyDetail, type LobbyState, type LobbySummary,
  type LobbyPhase, type LobbyVotes,
} from '../domain/lobby';
import type { Caller } from '../identity/caller';
import type { LiveStore, ReadGuard } from '../live/live-store';
import type { LobbyCreateBody } from '../../schema/lobby-bodies';
import { CONSOLE_LOGGER, UNGATED, type BanLookup, type CommandGate, type CommandLimit, type EngineLogger, type LobbyRecords, type MatchRecorder, type UnrecordedLobbies } from './engine-ports';
import { lobbyChatKey, lobbyKey, lobbyMemberKey, OPEN_LOBBIES } from './live-keys';
import { actorOf, banCheck, requireUser, SYSTEM_ACTOR } from './lobby-actors';
import { lobbyUpdates } from './lobby-broadcast';
import { postChat } from './lobby-chat-post';
import { lobbyCodeFrom, LOBBY_CODE_LENGTH } from './lobby-code';
import type { LobbyContext } from './lobby-context';
import { READ_AGAIN, retryOnConflict } from './cas-retry';
import { keepOrUndo, pendingWrite, written } from './durable-change';
import { LobbyDocuments, lobbyWrite, visibleLobby } from './lobby-documents';
import { LobbyEffects } from './lobby-effects';
import { partyJoin } from './lobby-party-join';
import { LobbyGroupCommit } from './lobby-group-commit';
import type { Committed } from './lobby-transaction';
import { MatchReporter } from './match-reporter';
import { currentLobbyOf, MembershipIndex } from './membership-index';

export interface LobbyEngineDeps {
  live: LiveStore;
  records: LobbyRecords;
  matches: MatchRecorder;
  bans: BanLookup;
  unrecorded?: UnrecordedLobbies;
  clock?: () => number;
  logger?: EngineLogger;
  /** Drops a public-cache topic in every instance (see public-cache-invalidation). */
  invalidate?: (topic: 'lobbies' | 'matches' | 'points') => void;
  randomBytes?: (size: number) => Uint8Array;
  /** The live epoch (LiveEpoch.current): lobbies rebuilt from Postgres get versions above it. */
  epoch?: () => Promise<number>;
  /** The live store whole again after a loss (LiveEpoch.whole): see LobbyContext.rebuilt. */
  rebuilt?: () => Promise<ReadGuard>;
  /** Maps a custom map pool may use (built-in and uploaded); the formats' default maps otherwise. */
  maps?: { names(): Promise<readonly string[]> };
  /** Game server reservations a lobby can be pinned to; without it no reservation id is anyone's. */
  reservations?: ReservationPins;
  /** How long a durable change may stay pending before another command settles it (see PendingMark); above the database's bound. */
  durableLeaseMs?: number;
}

/** The servers area's answer to "may this user pin a lobby to this reservation". */
export interface ReservationPins {
  /** Throws 404 (unknown), 403 (someone else's) or 409 (already over). */
  checkPinnable(userId: number, reservationId: number): Promise<void>;
  /** Records the pin once the lobby exists. */
  pinned(reservationId: number, code: string): Promise<void>;
}

/** Runs the pure lobby rules against the live store; one instance per process, any number of processes. */
export class LobbyEngine {
  readonly #ctx: LobbyContext;
  readonly #reporter: MatchReporter;
  readonly #group: LobbyGroupCommit;

  constructor(private readonly deps: LobbyEngineDeps) {
    const clock = deps.clock ?? machineTime.wall;
    const logger = deps.logger ?? CONSOLE_LOGGER;
    const invalidate = deps.invalidate ?? (() => undefined);
    const documents = new LobbyDocuments(deps.live, deps.records, logger, deps.epoch, deps.durableLeaseMs);
    const effects = new LobbyEffects({
      live: deps.live, documents, clock, logger, invalidate, summaries: () => this.summaries(),
    });
    const index = new MembershipIndex(deps.live, documents);
    this.#ctx = { live: deps.live, documents, effects, index, clock, logger, invalidate, isBanned: banCheck(deps.bans, clock), knownBan: (userId) => deps.bans.knownBan?.(userId, new Date(clock())) ?? null, rebuilt: deps.rebuilt };
    this.#reporter = new MatchReporter(this.#ctx, deps.matches);
    this.#group = new LobbyGroupCommit(deps.live, documents, clock, logger, deps.rebuilt);
  }

  async create(caller: Caller, body: LobbyCreateBody): Promise<{ code: string; lobby: LobbyDetail }> {
    const user = requireUser(caller);
    const reservationId = body.reservation_id ?? null;
    if (reservationId !== null) {
      if (!this.deps.reservations) throw notFound('reservation not found');
      await this.deps.reservations.checkPinnable(user.id, reservationId);
    }
    const { live, clock, effects, index } = this.#ctx;
    const [banned, knownMaps] = await Promise.all([this.#ctx.isBanned(user.id), this.deps.maps?.names()]);
    const random = this.deps.randomBytes ?? secureRandomBytes;
    // A fresh code on every round: a lost race, or a code that exists, draws another.
    const made = await retryOnConflict(live, async () => {
      const code = lobbyCodeFrom(random(LOBBY_CODE_LENGTH));
      // A code used before lives on in Postgres (matches are keyed by it): never reuse one.
      if (await this.deps.records.load(code)) return READ_AGAIN;
      // Before the index is read: after a loss of the live store, only once it is rebuilt (the one-lobby rule).
      const whole = this.deps.rebuilt && (await this.deps.rebuilt());
      const stale = await index.staleEntries([user.id], null);
      const entry = await live.get(lobbyMemberKey(user.id));
      const now = clock();
      const input = { code, name: body.name, format: body.format, mapPool: body.map_pool, region: body.region ?? null, reservationId };
      const outcome = createLobby(input, actorOf(user, currentLobbyOf(user.id, entry, stale), banned), now, {
        knownMaps,
      });
      if (!outcome.ok) throw outcome.error;
      const state = outcome.state;
      const member = { key: lobbyMemberKey(user.id), expectedVersion: entry?.version ?? 0, value: code };
      const publish = lobbyUpdates([{ before: null, after: state }], now);
      return {
        // Pending, announced once Postgres holds it (see keepOrUndo).
        writes: [pendingWrite(lobbyWrite(state, 0), null, [{ write: member, prior: entry?.value }], this.#ctx.documents.leaseMs), member],
        guards: whole ? [whole] : [],
        answer: (versions: number[]) => ({
          change: { before: null, after: state, storeVersion: versions[0], publish, others: [written(member, entry?.value, versions[1])] },
          events: outcome.events,
          now,
        }),
      };
    });
    const { change, events, now } = made;
    // A creation is durable before it is answered: a lobby Postgres does not hold is taken back.
    const storeVersion = await keepOrUndo(live, this.#ctx.documents, this.#ctx.logger, change, now);
    const committed: Committed = {
      before: change.after, after: change.after, events, changed: true, now, storeVersion, restored: false, scheduled: false, saved: true,
    };
    await effects.committed(committed, 'create');
    const { code } = committed.after;
    if (reservationId !== null) await this.deps.reservations!.pinned(reservationId, code);
    return { code, lobby: lobbyDetail(committed.after, committed.now) };
  }

  /** Null when no such lobby, live or in Postgres. */
  async detail(code: string): Promise<LobbyDetail | null> {
    const state = await this.#load(code, false);
    return state && lobbyDetail(state, this.#ctx.clock());
  }

  /** Open lobbies, oldest first. */
  async summaries(): Promise<LobbySummary[]> {
    const { live, documents, effects } = this.#ctx;
    const codes = await live.scoreRange(OPEN_LOBBIES, 0, Infinity);
    if (codes.length === 0) return [];
    const docs = await live.getMany(codes.map(lobbyKey));
    const states = await Promise.all(
      // A lobby with a durable change pending is listed as it was (see PendingMark).
      codes.map(async (code, i) => (docs[i] ? visibleLobby(docs[i]!.value) : ((await documents.restore(code))?.state ?? null))),
    );
    const open: LobbyState[] = [];
    for (const [i, state] of states.entries()) {
      if (state && !isClosed(state.phase)) open.push(state);
      // Closed or gone but still listed: a process stopped between the change and the list update.
      else await effects.untrack(codes[i]);
    }
    return open.map(lobbySummary);
  }

  async votes(code: string): Promise<LobbyVotes> {
    return voteCounts(await this.#load(code));
  }

  async myVote(code: string, caller: Caller): Promise<string | null> {
    const user = requireUser(caller);
    return myVote(await this.#load(code), user.id);
  }

  /** The last 200 messages, oldest first. */
  async chatHistory(code: string): Promise<LobbyChatMessage[]> {
    await this.#load(code);
    return this.#ctx.live.listRange<LobbyChatMessage>(lobbyChatKey(code));
  }

  /** See postChat. */
  chat(code: string, caller: Caller, message: unknown, gate: CommandGate = UNGATED): Promise<LobbyChatMessage> {
    return postChat(this.#ctx, (lobby) => this.#visiblePhase(lobby), code, caller, message, gate);
  }

  /** The phase a reader sees, without reading the whole lobby where the live store has it. */
  async #visiblePhase(code: string): Promise<LobbyPhase | null> {
    const phase = await this.#ctx.documents.visiblePhase(code);
    return phase === undefined ? ((await this.#load(code, false))?.phase ?? null) : phase;
  }

  /**
   * A client's command (everything but party-join, which `partyJoin` resolves, and the system's).
   * `limit`: the user's command limit, counted in the command's own commit (see LobbyGroupCommit).
   */
  async command(code: string, command: LobbyCommand, caller: Caller, limit?: CommandLimit): Promise<LobbyState> {
    if (!isClientCommandType(command.type) || command.type === 'party-join') throw invalid('unknown command');
    const user = requireUser(caller);
    let committed: Committed;
    if (command.type === 'join') {
      // Only joining asks which lobby the user is in (the one-lobby rule): the index entry is read with the lobby.
      const [banned, stale] = await Promise.all([this.#ctx.isBanned(user.id), this.#ctx.index.staleEntries([user.id], code)]);
      const key = lobbyMemberKey(user.id);
      committed = await this.#group.run(
        code,
        [key],
        (state, docs, now) => applyLobbyCommand(state, command, actorOf(user, currentLobbyOf(user.id, docs.get(key), stale), banned), now),
        { limit, crossLobby: true },
      );
    } else {
      committed = await this.#group.run(code, [], (state, _docs, now) => applyLobbyCommand(state, command, actorOf(user, null, false), now), { limit });
    }
    await this.#ctx.effects.committed(committed, command.type);
    return committed.after;
  }

  /** The open lobby a user is in, as the membership index says; null when none. */
  async lobbyOf(userId: number): Promise<string | null> {
    const entry = await this.#ctx.live.get<unknown>(lobbyMemberKey(userId));
    return typeof entry?.value === 'string' ? entry.value : null;
  }

  partyJoin(code: string, caller: Caller): Promise<void> {
    return partyJoin(this.#ctx, code, caller);
  }

  /** Ends the match with its score, then writes it to Postgres with the rating changes; answers the match id. */
  async report(code: string, caller: Caller, scoreRed: number, scoreBlu: number): Promise<number> {
    const ended = await this.command(code, { type: 'report', scoreRed, scoreBlu }, caller);
    const matchId = await this.#reporter.record(ended);
    if (matchId === null) throw new Error(`lobby ${code} did not end`);
    return matchId;
  }

  /** The deadline worker's command: catch up with the clock (a lapsed ready flag is a change too). */
  async tick(code: string): Promise<void> {
    let committed: Committed;
    try {
      // The worker's claim holds the queue entry until a new deadline replaces it: see lobbyDeadline.
      committed = await this.#group.run(code, [], (state, _docs, now) => applyLobbyCommand(state, { type: 'tick' }, SYSTEM_ACTOR, now), {
        renewsDeadline: true,
      });
    } catch (error) {
      if ((error as { kind?: string }).kind === 'not_found') return;
      throw error;
    }
    await this.#ctx.effects.committed(committed, 'tick');
  }

  /** Writes the match of a lobby that ended without one (the worker's retry queue). */
  recordMatch(code: string): Promise<number | null> {
    return this.#reporter.recordCode(code);
  }

  /**
   * Start-up pass: puts open lobbies the live store lost back from Postgres (with their list
   * entry and deadline) and writes the matches of lobbies that ended without one.
   */
  async recover(): Promise<{ restored: number; recorded: number }> {
    const { documents, effects, logger } = this.#ctx;
    let restored = 0;
    let recorded = 0;
    const unrecorded = (await this.deps.unrecorded?.codes()) ?? [];
    for (const record of await this.deps.records.loadOpen()) {
      try {
        const loaded = await documents.load(record.code);
        if (!loaded) continue;
        if (loaded.restored) restored++;
        if (loaded.state.version > record.version) await documents.save(loaded.state).catch((error: unknown) => {
          documents.retryBehind(loaded.state);
          throw error;
        });
        await effects.restored(loaded);
        if (loaded.state.phase === 'ended' && loaded.state.matchId === null && !unrecorded.includes(record.code)) {
          await this.#reporter.record(loaded.state);
          recorded++;
        }
      } catch (error) {
        logger.error({ err: error, code: record.code }, 'recovering a lobby failed');
      }
    }
    for (const code of unrecorded) {
      try {
        if ((await this.#reporter.recordCode(code)) !== null) recorded++;
      } catch (error) {
        logger.error({ err: error, code }, 'recording a match at start-up failed');
      }
    }
    return { restored, recorded };
  }

  /** Resolves once background work started by past commands (the lobby list push) is done. */
  idle(): Promise<void> {
    return this.#ctx.effects.idle();
  }

  async #load(code: string, required?: true): Promise<LobbyState>;
  async #load(code: string, required: false): Promise<LobbyState | null>;
  async #load(code: string, required = true): Promise<LobbyState | null> {
    const loaded = await this.#ctx.documents.load(code);
    if (!loaded) {
      if (required) throw notFound('lobby not found');
      return null;
    }
    if (loaded.restored) await this.#ctx.effects.restored(loaded);
    return loaded.state;
  }

}
