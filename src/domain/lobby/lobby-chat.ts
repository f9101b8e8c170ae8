import type { UserPublic } from '../../../schema/user';
import { isoTime } from '../iso-time';
import { conflict, forbidden, invalid, type DomainError } from '../domain-error';
import type { Actor } from './lobby-actor';
import { isClosed, type LobbyPhase } from './lobby-state';
import type { LobbyChatMessage } from './lobby-wire';

export const CHAT_MESSAGE_MAX = 500;

/**
 * Chat lives beside the lobby state (a capped list in the live store), so it does not bump the
 * lobby's version. Anyone signed in may talk in an open lobby, as the specification allows;
 * the limit applies to the trimmed text, which is what gets stored.
 */
export function validateChat(phase: LobbyPhase, actor: Actor, message: unknown, _now: number): DomainError | null {
  if (actor.banned) return forbidden('you are banned');
  if (isClosed(phase)) return conflict(phase === 'cancelled' ? 'lobby is cancelled' : 'lobby has ended');
  if (typeof message !== 'string') return invalid('message is required');
  const text = message.trim();
  if (text.length === 0) return invalid('message is empty');
  if (text.length > CHAT_MESSAGE_MAX) return invalid(`message is longer than ${CHAT_MESSAGE_MAX} characters`);
  return null;
}

/** A message as stored and shown, but for its id, which the live store gives it as it stores it. */
export function chatMessage(user: UserPublic, message: string, now: number): Omit<LobbyChatMessage, 'id'> {
  return { user, message: message.trim(), created_at: isoTime(now) };
}
