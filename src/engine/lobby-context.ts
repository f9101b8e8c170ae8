import type { LiveStore, ReadGuard } from '../live/live-store';
import type { EngineLogger, KnownBan } from './engine-ports';
import type { LobbyDocuments } from './lobby-documents';
import type { LobbyEffects } from './lobby-effects';
import type { MembershipIndex } from './membership-index';

/** What the lobby engine's parts share; built once by the engine. */
export interface LobbyContext {
  live: LiveStore;
  documents: LobbyDocuments;
  effects: LobbyEffects;
  index: MembershipIndex;
  clock: () => number;
  logger: EngineLogger;
  isBanned: (userId: number) => Promise<boolean>;
  /** The ban list's answer while it is known current, without a read (see KnownBan); null otherwise. */
  knownBan: (userId: number) => KnownBan | null;
  invalidate: (topic: 'lobbies' | 'matches' | 'points') => void;
  /**
   * Waits until the live store is whole (no rebuild after a loss under way) and answers the guard
   * that the commits of commands resting on the membership index carry (see LiveEpoch.whole).
   * Absent: the store is never rebuilt (tests on a bare store).
   */
  rebuilt?: () => Promise<ReadGuard>;
}
