import type { Actor } from './lobby-actor';
import type { TfClass } from './formats';
import type { Team } from './lobby-state';

/*
 * Every command a lobby accepts. `type` is the last path segment of the REST route, so a socket
 * `lobby:command` maps onto it one to one. Bodies are camelCase here; the transport renames.
 */
export type LobbyCommand =
  | { type: 'join' }
  /** The whole party, leader included, resolved by the engine. */
  | { type: 'party-join'; members: Actor[] }
  | { type: 'leave' }
  | { type: 'kick'; userId: number }
  | { type: 'set-captain'; userId: number; team?: Team }
  | { type: 'start-draft' }
  | { type: 'pick'; userId: number }
  | { type: 'unpick'; userId: number }
  | { type: 'drop-to-pool'; userId: number }
  | { type: 'pick-slot'; team: Team; index: number; userId?: number }
  | { type: 'set-class'; class: TfClass }
  | { type: 'vote-map'; map: string }
  | { type: 'ready' }
  | { type: 'keep-ready' }
  | { type: 'force-start' }
  | { type: 'report'; scoreRed: number; scoreBlu: number }
  /** DELETE /api/lobbies/{code}. */
  | { type: 'cancel' }
  /** System: the engine stores the id of the match a report created. */
  | { type: 'record-match'; matchId: number }
  /** System: the deadline scheduler asks the lobby to catch up with the clock. */
  | { type: 'tick' };

export type LobbyCommandType = LobbyCommand['type'];
export type CommandOf<T extends LobbyCommandType> = Extract<LobbyCommand, { type: T }>;

/** Commands only the engine itself may issue; a transport must never pass these through from a client. */
export const SYSTEM_COMMAND_TYPES: readonly LobbyCommandType[] = ['record-match', 'tick'];

export const CLIENT_COMMAND_TYPES: readonly LobbyCommandType[] = [
  'join', 'party-join', 'leave', 'kick', 'set-captain', 'start-draft', 'pick', 'unpick', 'drop-to-pool',
  'pick-slot', 'set-class', 'vote-map', 'ready', 'keep-ready', 'force-start', 'report', 'cancel',
];

export const isClientCommandType = (type: string): type is LobbyCommandType =>
  (CLIENT_COMMAND_TYPES as readonly string[]).includes(type);
