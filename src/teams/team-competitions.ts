import type { EntityManager } from '../db/orm';
import type { CompetitionEntry } from '../domain/teams';

/**
 * What the teams area needs to know of competitions (tournaments, cups), filled by the area that
 * owns them: the entries of some teams in competitions that have not ended (`signups` to
 * `running`), read inside the caller's transaction so a roster change and the entries it was
 * checked against are one consistent view. Locked rosters, the one-team-per-tournament rule and
 * the 409 on disbanding an entered team are all derived from this one answer.
 */
export interface TeamCompetitions {
  currentEntriesOf(teamIds: readonly number[], em: EntityManager): Promise<CompetitionEntry[]>;
}

/** Until a competitions area is wired: no team is entered anywhere. */
export const NO_COMPETITIONS: TeamCompetitions = {
  async currentEntriesOf() {
    return [];
  },
};
