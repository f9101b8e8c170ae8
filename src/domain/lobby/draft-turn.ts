import { filledCount, isTeamFull } from './lobby-membership';
import { otherTeam, type LobbyState, type Team } from './lobby-state';

/**
 * Whose pick it is, derived rather than stored so that unpick, leave and drop-to-pool never leave
 * a stale turn behind: the team with fewer players picks; on a tie, the team that did not make the
 * last pick (red first); a full team never picks. Null outside drafting or when both are full.
 */
export function draftTurn(state: LobbyState): Team | null {
  if (state.phase !== 'drafting') return null;
  const redFull = isTeamFull(state, 'red');
  const bluFull = isTeamFull(state, 'blu');
  if (redFull && bluFull) return null;
  if (redFull) return 'blu';
  if (bluFull) return 'red';
  const red = filledCount(state, 'red');
  const blu = filledCount(state, 'blu');
  if (red !== blu) return red < blu ? 'red' : 'blu';
  const last = state.picks[state.picks.length - 1];
  return last ? otherTeam(last.team) : 'red';
}
