import type { NotificationOutbox } from '../db/notification-outbox';
import type { EntityManager } from '../db/orm';
import { tournamentEvents } from '../domain/notifications/tournament-events';
import type { EntryRecord, StoredMatch, TournamentRecord, TournamentRepository } from '../db/tournament-repository';
import type { EntryFeePort } from './entry-fee';
import { allResolved, computeStandings, type BracketMatch, type TeamId } from '../domain/tournaments';

/** Entries that play (seeded at the start), in seed order. */
export function seededTeams(entries: readonly EntryRecord[]): TeamId[] {
  return entries
    .filter((e) => e.seed !== null && (e.status === 'active' || e.status === 'eliminated'))
    .sort((a, b) => a.seed! - b.seed!)
    .map((e) => e.team.id);
}

/** The tournament ends when nothing is left to play (and, for Swiss, every round was paired). */
export function isFinished(t: TournamentRecord, matches: readonly BracketMatch[]): boolean {
  if (!allResolved(matches)) return false;
  if (t.kind !== 'swiss') return true;
  const rounds = matches.reduce((max, m) => Math.max(max, m.round), 0);
  return rounds >= (t.swissRounds ?? 0);
}

/**
 * The one write path after any bracket change, inside the locked transaction: the matches that
 * differ, the entries' statuses (knocked out, or final ranks once finished), the completion, the
 * next version. A constant number of statements whatever the bracket size.
 */
export async function commitBracketIn(
  em: EntityManager,
  repo: TournamentRepository,
  t: TournamentRecord,
  before: readonly StoredMatch[],
  after: readonly BracketMatch[],
  entries: readonly EntryRecord[],
  hooks: { fees: EntryFeePort; outbox?: NotificationOutbox },
): Promise<number> {
  const known = new Map(before.map((m) => [m.key, m]));
  const changed = after.filter((m) => known.get(m.key) !== m);
  const inserted = changed.filter((m) => !known.has(m.key));
  await repo.updateMatchesIn(em, t.id, changed.filter((m) => known.has(m.key)));
  if (inserted.length > 0) await repo.insertMatchesIn(em, t.id, before.length, inserted);

  const seeded = seededTeams(entries);
  const finished = isFinished(t, after);
  const standings = computeStandings(t.kind, seeded, after);
  const elimination = t.kind === 'single_elimination' || t.kind === 'double_elimination';
  await repo.writeEntriesIn(
    em,
    t.id,
    standings.map((row) => ({
      teamId: row.teamId,
      // While an elimination runs, every team still alive shares rank 1.
      status: (finished ? row.rank === 1 : !elimination || row.rank === 1) ? 'active' : 'eliminated',
      seed: seeded.indexOf(row.teamId) + 1,
      finalRank: finished ? row.rank : null,
    })),
  );
  const completes = finished && t.status !== 'completed';
  await notifyIn(em, hooks.outbox, t, before, after, entries, completes ? (standings.find((row) => row.rank === 1)?.teamId ?? null) : null);
  if (completes) {
    await repo.setStatusIn(em, t.id, 'completed');
    await hooks.fees.completedIn(em, t);
  }
  else if (!finished && t.status === 'completed') await repo.setStatusIn(em, t.id, 'running');
  return repo.bumpVersionIn(em, t.id);
}

/**
 * The chat-platform events of a bracket change (tournament-events.ts decides them), written
 * through the outbox in the change's own transaction: they commit with it or not at all.
 */
export async function notifyIn(
  em: EntityManager,
  outbox: NotificationOutbox | undefined,
  t: TournamentRecord,
  before: readonly BracketMatch[],
  after: readonly BracketMatch[],
  entries: readonly EntryRecord[],
  champion: TeamId | null,
): Promise<void> {
  if (outbox === undefined) return;
  const names = new Map(entries.map((e) => [e.team.id, e.team.name]));
  const events = tournamentEvents({
    tournament: { id: t.id, name: t.name, format: t.format, kind: t.kind },
    before,
    after,
    champion,
    teamName: (id) => names.get(id) ?? `Team ${id}`,
  });
  await outbox.enqueueIn(em, events);
}
