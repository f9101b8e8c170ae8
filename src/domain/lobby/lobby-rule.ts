import { DomainError, invalid } from '../domain-error';
import type { Actor } from './lobby-actor';
import type { CommandOf, LobbyCommandType } from './lobby-commands';
import type { LobbyEvent } from './lobby-events';
import type { LobbyState } from './lobby-state';

/**
 * One command's rule. It receives a private copy of the settled state to change in place, and
 * answers either the error that refuses the command or the events beyond those the dispatcher
 * derives itself. A rule that changes nothing simply succeeds; the dispatcher then keeps the
 * version. Checks run in one order everywhere: body shape (400), who the caller is (403),
 * phase (409), then the target and the state (404/409/400).
 */
export type LobbyRule<T extends LobbyCommandType> = (
  draft: LobbyState,
  command: CommandOf<T>,
  actor: Actor,
  now: number,
) => DomainError | LobbyEvent[];

export const isUserId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

export const badUserId = (value: unknown): DomainError | null => (isUserId(value) ? null : invalid('user_id must be a positive integer'));

export const isHost = (state: LobbyState, actor: Actor): boolean => state.hostId === actor.id;
