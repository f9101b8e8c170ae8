import { createTeam, join, kick, leave, setRole, type TeamActor, type TeamEvent, type TeamState } from '../domain/teams';
import type { Outcome } from '../domain/domain-error';
import type { Database } from './orm';
import { TeamRepository } from './team-repository';

/** Demo teams: who founds each, who joins (indexes into the demo players), and a bit of history. */
const DEMO_TEAMS = [
  {
    profile: { name: 'Kestrel Company', tag: 'KES', description: 'Sunday nights, 6v6. Looking for a pocket soldier.' },
    leader: 0,
    members: [1, 2, 3, 4, 5],
    captain: 1,
    left: 5,
  },
  {
    profile: { name: 'Saltmarsh Rovers', tag: 'SALT', description: 'Casual 4v4 and ultiduo; new players welcome.' },
    leader: 4,
    members: [6, 7, 8],
    captain: 6,
    kicked: 8,
  },
  { profile: { name: 'Nightjar', tag: 'NJ', description: '' }, leader: 8, members: [9, 10, 11], captain: 10 },
];

/**
 * A few teams for `npm start`'s demo league, written through the same rules and repository as the
 * routes (so the rows, versions and history intervals are exactly what real use leaves), with
 * changes spread over the past days.
 */
export async function seedDemoTeams(db: Database, playerIds: readonly number[], now: Date): Promise<void> {
  for (const [t, demo] of DEMO_TEAMS.entries()) {
    let at = now.getTime() - (96 - t * 10) * 3_600_000;
    const later = () => new Date((at += 3 * 3_600_000));
    const who = (i: number): TeamActor => ({ id: playerIds[i], isAdmin: false, banned: false });
    await db.em().transactional(async (em) => {
      const founded = new Date(at);
      const created = createTeam(0, demo.profile, who(demo.leader), founded.getTime());
      if (!created.ok) throw created.error;
      let state: TeamState = { ...created.state, id: await TeamRepository.createIn(em, demo.profile, playerIds[demo.leader], founded) };
      const step = async (outcome: Outcome<TeamState, TeamEvent>) => {
        if (!outcome.ok) throw outcome.error;
        await TeamRepository.applyIn(em, outcome.state, outcome.events, later());
        state = outcome.state;
      };
      for (const m of demo.members) await step(join(state, playerIds[m], who(m), at));
      await step(setRole(state, playerIds[demo.captain], 'captain', who(demo.leader)));
      if (demo.left !== undefined) await step(leave(state, who(demo.left)));
      if (demo.kicked !== undefined) await step(kick(state, playerIds[demo.kicked], who(demo.leader)));
    });
  }
}
