import { conflict, forbidden, invalid } from '../domain-error';
import { captainOf } from './lobby-membership';
import { isHost, type LobbyRule } from './lobby-rule';

const isScore = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

export const report: LobbyRule<'report'> = (draft, command, actor, now) => {
  if (!isScore(command.scoreRed) || !isScore(command.scoreBlu)) return invalid('scores must be integers >= 0');
  if (!isHost(draft, actor) && captainOf(draft, actor.id) === null) return forbidden('only a captain or the host may report');
  if (draft.phase !== 'live') return conflict('the match is not live');
  draft.phase = 'ended';
  draft.endedAt = now;
  draft.scoreRed = command.scoreRed;
  draft.scoreBlu = command.scoreBlu;
  return [{ type: 'match_reported', scoreRed: command.scoreRed, scoreBlu: command.scoreBlu }];
};

/** System command: the engine records the match row a report created. Once only. */
export const recordMatch: LobbyRule<'record-match'> = (draft, command) => {
  if (!Number.isSafeInteger(command.matchId) || command.matchId <= 0) return invalid('match_id must be a positive integer');
  if (draft.phase !== 'ended') return conflict('the match has not been reported');
  if (draft.matchId !== null) return conflict('the match is already recorded');
  draft.matchId = command.matchId;
  return [{ type: 'match_recorded', matchId: command.matchId }];
};

/** Host, or an admin (force-ending a stuck lobby); any phase before ended. */
export const cancel: LobbyRule<'cancel'> = (draft, _command, actor, now) => {
  if (!isHost(draft, actor) && !actor.isAdmin) return forbidden('only the host may cancel');
  draft.phase = 'cancelled';
  draft.endedAt = now;
  draft.readyCheckDeadline = null;
  return [];
};
