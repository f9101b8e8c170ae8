import { conflict, forbidden, invalid, notFound } from '../domain-error';
import { classLimit, TF_CLASSES } from './formats';
import { captainOf, locate, seatedTeam, slotOf } from './lobby-membership';
import { isUserId, type LobbyRule } from './lobby-rule';
import { isTeam } from './lobby-state';
import { moveToSlot } from './seating';

/**
 * Choose a slot within one's team: a seated player moves themselves; a captain moves a teammate.
 * Nobody crosses teams this way. Asking for the slot one already holds succeeds with no change.
 */
export const pickSlot: LobbyRule<'pick-slot'> = (draft, command, actor) => {
  if (!isTeam(command.team)) return invalid('team must be red or blu');
  if (!Number.isInteger(command.index)) return invalid('index must be an integer');
  if (command.userId !== undefined && !isUserId(command.userId)) return invalid('user_id must be a positive integer');
  const team = command.team;
  if (command.index < 0 || command.index >= draft.teams[team].length) return invalid('no such slot');
  const target = command.userId ?? actor.id;
  if (target === actor.id) {
    if (seatedTeam(draft, actor.id) !== team) return forbidden('not on that team');
  } else if (captainOf(draft, actor.id) !== team) {
    return forbidden("only the team's captain may move a teammate");
  }
  if (draft.phase !== 'gathering' && draft.phase !== 'drafting') return conflict('slots are locked');
  if (target !== actor.id) {
    const where = locate(draft, target);
    if (where === null) return notFound('user is not in this lobby');
    if (where.at !== 'slot' || where.team !== team) return conflict('not a drafted teammate');
  }
  const slot = draft.teams[team][command.index];
  if (slot.userId === target) return [];
  if (slot.userId !== null) return conflict('slot taken');
  moveToSlot(draft, target, team, command.index);
  return [];
};

/**
 * The class belongs to the slot, so it stays when the player leaves: resetting it could push the
 * team over a class limit. Choosing the class one already plays succeeds with no change.
 */
export const setClass: LobbyRule<'set-class'> = (draft, command, actor) => {
  if (!(TF_CLASSES as readonly string[]).includes(command.class)) return invalid('unknown class');
  const slot = slotOf(draft, actor.id);
  const team = seatedTeam(draft, actor.id);
  if (slot === null || team === null) return conflict('not in a slot');
  if (slot.class === command.class) return [];
  const others = draft.teams[team].filter((s) => s !== slot && s.class === command.class).length;
  if (others + 1 > classLimit(draft.format, command.class)) return conflict('class limit reached');
  slot.class = command.class;
  return [];
};
