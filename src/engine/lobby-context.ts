import type { LiveStore } from '../live/live-store';
import type { EngineLogger } from './engine-ports';
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
  invalidate: (topic: 'lobbies' | 'matches' | 'points') => void;
}
