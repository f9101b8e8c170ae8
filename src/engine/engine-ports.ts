import type { BanRepository } from '../db/ban-repository';
import type { LobbyRecordRepository } from '../db/lobby-record-repository';
import type { MatchRepository } from '../db/match-repository';
import type { UsersRepository } from '../db/users-repository';
import type { ReadGuard, WindowCheck, WindowHit } from '../live/live-store';

/*
 * The durable side as the engines see it: narrow slices of the repositories, so the benchmark and
 * the tests can stand in for Postgres where a path never reaches it.
 */
export type LobbyRecords = Pick<LobbyRecordRepository, 'save' | 'saveMany' | 'load' | 'loadOpen'>;
export type MatchRecorder = Pick<MatchRepository, 'recordMatch'>;
export type BanLookup = Pick<BanRepository, 'activeBan'> & {
  /** Answered from a list known current without a read, with the read a write must guard on to act on it (BanList); null when not known current. */
  knownBan?(userId: number, now: Date): KnownBan | null;
};

/** Whether a user is banned, as a list known current says, and the version that list was read at: a write guarded on it happens only while the list is still current. */
export interface KnownBan {
  banned: boolean;
  guard: ReadGuard;
}
export type UserLookup = Pick<UsersRepository, 'findByPlatformId'>;

/** Codes of ended lobbies whose match id was never stored (a crash between report and record). */
export interface UnrecordedLobbies {
  codes(): Promise<string[]>;
}

export interface EngineLogger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export const CONSOLE_LOGGER: EngineLogger = {
  error: (details, message) => console.error(message, details),
  warn: (details, message) => console.warn(message, details),
};

/**
 * A user's limit on lobby commands, handed to the engine so that its hit is counted in the
 * command's own commit (one round trip for both) instead of by a call of its own before it.
 * `refuse` makes the error a refused hit answers (the HTTP layer's 429 with Retry-After).
 */
export interface CommandLimit {
  hit: WindowCheck;
  refuse(verdict: WindowHit): Error;
}

/**
 * The per-user limits as one command meets them: `gated()` runs the gate's check (a refusal
 * rejects it), once; `limit`, when the gate offers it, is the same check for the engine to count
 * in the command's own commit instead, sparing the round trip.
 */
export interface CommandGate {
  gated(): Promise<void>;
  limit: CommandLimit | undefined;
}

export const UNGATED: CommandGate = { gated: async () => undefined, limit: undefined };
