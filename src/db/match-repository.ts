import { invalid, notFound } from '../domain/domain-error';
import { DEFAULT_EARNING_RATES, matchEarnings, type EarningRates } from '../domain/points/match-earnings';
import { rateMatch, type RatingChange, type Team } from '../domain/rating/elo';
import type { EmSource, EntityManager } from './orm';
import { bookIn } from './point-ledger';

export interface MatchReport {
  lobbyCode: string;
  format: string;
  map: string | null;
  scoreRed: number;
  scoreBlu: number;
  startedAt: Date;
  endedAt: Date;
  players: { userId: number; team: Team; class: string }[];
}

export interface RecordedMatch {
  matchId: number;
  /** False when this lobby was already reported: nothing was written, the first match stands. */
  created: boolean;
  /** Rating changes written by this call; empty when created is false. */
  changes: RatingChange[];
}

export class MatchRepository {
  constructor(
    private readonly db: EmSource,
    private readonly earning: EarningRates = DEFAULT_EARNING_RATES,
  ) {}

  /**
   * Writes a finished match, its rating changes and every player's points in one transaction.
   * Idempotent per lobby: the unique lobby_code makes a repeated or concurrent report find the
   * first match instead, so nothing (points included) is written twice; the ledger's unique
   * source key per match and player would refuse a second payout anyway.
   * Throws DomainError invalid (a player listed twice) or not_found (an unknown user).
   */
  async recordMatch(report: MatchReport): Promise<RecordedMatch> {
    assertDistinctPlayers(report);
    return this.db.em().transactional((em) => recordIn(em, report, this.earning));
  }
}

async function recordIn(em: EntityManager, report: MatchReport, earning: EarningRates): Promise<RecordedMatch> {
  // A concurrent report of the same lobby waits here on the unique index until the first commits.
  const inserted = await em.execute<{ id: number }[]>(
    `insert into matches (lobby_code, format, map, score_red, score_blu, winner, duration_seconds, started_at, ended_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (lobby_code) do nothing
     returning id`,
    [
      report.lobbyCode,
      report.format,
      report.map,
      report.scoreRed,
      report.scoreBlu,
      winnerOf(report),
      Math.max(0, Math.round((report.endedAt.getTime() - report.startedAt.getTime()) / 1000)),
      report.startedAt,
      report.endedAt,
    ],
  );
  if (inserted.length === 0) {
    const existing = await em.execute<{ id: number }[]>('select id from matches where lobby_code = ?', [
      report.lobbyCode,
    ]);
    return { matchId: existing[0].id, created: false, changes: [] };
  }
  const matchId = inserted[0].id;
  if (report.players.length === 0) return { matchId, created: true, changes: [] };

  const userIds = report.players.map((p) => p.userId);
  // Locked in id order, so two matches sharing players always queue and never deadlock. "No key
  // update": the ledger's foreign keys to users take key-share locks, which this must not block,
  // or a spend holding a balance row would wait here while this waits for that balance row.
  const locked = await em.execute<{ id: number; elo: number; matches_played: number }[]>(
    'select id, elo, matches_played from users where id in (?) order by id for no key update',
    [userIds],
  );
  const byId = new Map(locked.map((row) => [row.id, row]));
  const missing = userIds.find((id) => !byId.has(id));
  if (missing !== undefined) throw notFound(`user ${missing} not found`);

  const changes = rateMatch(
    report.players.map((p) => ({
      userId: p.userId,
      team: p.team,
      elo: byId.get(p.userId)!.elo,
      matchesPlayed: byId.get(p.userId)!.matches_played,
    })),
    report.scoreRed,
    report.scoreBlu,
  );
  const winner = winnerOf(report);
  const rows = report.players.map((p, i) => ({
    ...p,
    change: changes[i],
    won: winner === 'draw' ? null : p.team === winner,
  }));

  await em.execute(
    `insert into match_players (match_id, user_id, team, class, elo_before, elo_after, won)
     values ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    rows.flatMap((r) => [matchId, r.userId, r.team, r.class, r.change.before, r.change.after, r.won]),
    'run',
  );
  await em.execute(
    `update users as u set
       elo = v.elo,
       matches_played = u.matches_played + 1,
       wins = u.wins + v.win,
       losses = u.losses + v.loss
     from (values ${rows.map(() => '(?::int, ?::int, ?::int, ?::int)').join(', ')}) as v (id, elo, win, loss)
     where u.id = v.id`,
    rows.flatMap((r) => [r.userId, r.change.after, r.won === true ? 1 : 0, r.won === false ? 1 : 0]),
    'run',
  );
  await bookIn(em, matchEarnings(matchId, rows, earning));
  return { matchId, created: true, changes };
}

function winnerOf(report: Pick<MatchReport, 'scoreRed' | 'scoreBlu'>): Team | 'draw' {
  if (report.scoreRed === report.scoreBlu) return 'draw';
  return report.scoreRed > report.scoreBlu ? 'red' : 'blu';
}

function assertDistinctPlayers(report: MatchReport): void {
  const seen = new Set<number>();
  for (const { userId } of report.players) {
    if (seen.has(userId)) throw invalid(`user ${userId} is listed twice in match ${report.lobbyCode}`);
    seen.add(userId);
  }
}
