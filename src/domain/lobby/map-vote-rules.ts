import { conflict, forbidden, invalid } from '../domain-error';
import { isInLobby } from './lobby-membership';
import type { LobbyRule } from './lobby-rule';
import { memberKey } from './lobby-state';

/** One vote per member, replaced by the next; voting again for the same map changes nothing. */
export const voteMap: LobbyRule<'vote-map'> = (draft, command, actor) => {
  if (typeof command.map !== 'string' || command.map.length === 0) return invalid('map is required');
  if (!isInLobby(draft, actor.id)) return forbidden('not in this lobby');
  if (draft.phase === 'live') return conflict('voting is closed');
  if (!draft.mapPool.includes(command.map)) return invalid("map is not in this lobby's pool");
  draft.votes[memberKey(actor.id)] = command.map;
  return [];
};
