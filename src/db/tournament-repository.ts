import type { CupTerms, Prize } from '../domain/cups';
import type { BracketMatch, Forfeit, MatchFlow, MatchStatus, SlotSource, StageKind, TournamentHeader, TournamentSettings } from '../domain/tournaments';
import type { EmSource, EntityManager } from './orm';
import type { TeamSummaryRecord } from './team-repository';

export type EntryStatus = 'entered' | 'withdrawn' | 'dropped' | 'eliminated' | 'active';

export interface EntryRecord {
  tournamentId: number;
  team: TeamSummaryRecord;
  seed: number | null;
  checkedIn: boolean;
  status: EntryStatus;
  finalRank: number | null;
  enteredAt: Date;
}

export interface TournamentRecord extends TournamentHeader {
  entryFee: { amount: number; currency: string } | null;
  /** A cup's prizes and house share; null for a plain tournament. */
  prizes: Prize[] | null;
  housePercent: number | null;
  createdAt: Date;
}

/** A bracket match with its row id (the wire's match id) and the lobby opened for it. */
export interface StoredMatch extends BracketMatch {
  id: number;
  lobbyCode: string | null;
}

const HEADER = `id, name, format, kind, status, max_teams, best_of, swiss_rounds, starts_at, check_in_minutes, roster_locked, entry_fee, prizes, house_percent, version, created_at`;
const MATCH = `id, key, stage, round, number, home_source, away_source, home_team_id, away_team_id, status, flow, home_score, away_score, forfeit,
  winner_team_id, reported_by_team_id, dispute_reason, lobby_code`;

/**
 * Tournaments in Postgres (migration 0010). Every change runs in `lockedIn`: one transaction that
 * first locks the tournament row, so entries, starts and result writes of one tournament take
 * turns on every instance (brackets-storage #4), and `bumpVersionIn` gives each committed change
 * the next version.
 */
export class TournamentRepository {
  constructor(private readonly db: EmSource) {}

  em(): EntityManager {
    return this.db.em();
  }

  /** `cup`: the terms of a cup (its fee, prizes and house share), null for a plain tournament. */
  async create(settings: TournamentSettings, createdBy: number, cup: CupTerms | null = null): Promise<number> {
    const [row] = await this.db.em().execute<{ id: number }[]>(
      `insert into tournaments (name, format, kind, max_teams, best_of, swiss_rounds, starts_at, check_in_minutes, roster_locked, created_by_id,
         entry_fee, prizes, house_percent)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?) returning id`,
      [settings.name, settings.format, settings.kind, settings.maxTeams, settings.bestOf, settings.swissRounds, settings.startsAt,
        settings.checkInMinutes, settings.rosterLocked, createdBy, cup ? JSON.stringify(cup.entryFee) : null, cup ? JSON.stringify(cup.prizes) : null,
        cup?.housePercent ?? null],
    );
    return row!.id;
  }

  /** Runs `work` in one transaction holding the tournament's row lock; null header: no such tournament. */
  lockedIn<T>(id: number, work: (em: EntityManager, tournament: TournamentRecord | null) => Promise<T>): Promise<T> {
    return this.db.em().transactional(async (em) => {
      const [row] = await em.execute<HeaderRow[]>(`select ${HEADER} from tournaments where id = ? for update`, [id]);
      return work(em, row ? toRecord(row) : null);
    });
  }

  async find(id: number, em: EntityManager = this.db.em()): Promise<TournamentRecord | null> {
    const [row] = await em.execute<HeaderRow[]>(`select ${HEADER} from tournaments where id = ?`, [id]);
    return row ? toRecord(row) : null;
  }

  /** Soonest start first; `status` is a stored status (check_in is signups read off the clock). */
  async list(filter: { stored: string | null; checkIn: 'only' | 'exclude' | null; now: Date }, page: number, limit: number): Promise<{ rows: TournamentRecord[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.stored !== null) {
      where.push('status = ?');
      params.push(filter.stored);
    }
    // check_in: signups whose window is open; signups: those whose window is not.
    const windowOpen = `(check_in_minutes > 0 and starts_at - make_interval(mins => check_in_minutes) <= ?)`;
    if (filter.checkIn === 'only') {
      where.push(windowOpen);
      params.push(filter.now);
    } else if (filter.checkIn === 'exclude') {
      where.push(`not ${windowOpen}`);
      params.push(filter.now);
    }
    const clause = where.length > 0 ? `where ${where.join(' and ')}` : '';
    const em = this.db.em();
    const [count] = await em.execute<{ n: number }[]>(`select count(*)::int as n from tournaments ${clause}`, params);
    const rows = await em.execute<HeaderRow[]>(`select ${HEADER} from tournaments ${clause} order by starts_at, id limit ? offset ?`, [
      ...params, limit, (page - 1) * limit,
    ]);
    return { rows: rows.map(toRecord), total: count!.n };
  }

  async updateSettingsIn(em: EntityManager, id: number, settings: TournamentSettings): Promise<void> {
    await em.execute(
      `update tournaments set name = ?, format = ?, kind = ?, max_teams = ?, best_of = ?, swiss_rounds = ?, starts_at = ?, check_in_minutes = ?,
       roster_locked = ? where id = ?`,
      [settings.name, settings.format, settings.kind, settings.maxTeams, settings.bestOf, settings.swissRounds, settings.startsAt,
        settings.checkInMinutes, settings.rosterLocked, id],
      'run',
    );
  }

  async setStatusIn(em: EntityManager, id: number, status: 'running' | 'completed' | 'cancelled'): Promise<void> {
    const column = status === 'running' ? 'started_at' : status === 'completed' ? 'completed_at' : 'cancelled_at';
    await em.execute(`update tournaments set status = ?, ${column} = now() where id = ?`, [status, id], 'run');
  }

  /** The next version of a locked tournament: every committed change has its own. */
  async bumpVersionIn(em: EntityManager, id: number): Promise<number> {
    const [row] = await em.execute<{ version: number }[]>('update tournaments set version = version + 1 where id = ? returning version', [id]);
    return row!.version;
  }

  /** Entries of some tournaments with their teams' summaries, in entry order. */
  async entries(tournamentIds: readonly number[], em: EntityManager = this.db.em()): Promise<EntryRecord[]> {
    if (tournamentIds.length === 0) return [];
    const rows = await em.execute<EntryRow[]>(
      `select e.tournament_id, e.seed, e.checked_in, e.status, e.final_rank, e.entered_at,
         t.id as team_id, t.name, t.tag, t.leader_id,
         (select count(*)::int from team_memberships m where m.team_id = t.id and m.left_at is null) as member_count
       from tournament_entries e join teams t on t.id = e.team_id
       where e.tournament_id in (${tournamentIds.map(() => '?').join(', ')}) and e.status <> 'withdrawn'
       order by e.tournament_id, e.seed nulls last, e.entered_at, e.id`,
      [...tournamentIds],
    );
    return rows.map((row) => ({
      tournamentId: row.tournament_id,
      team: { id: row.team_id, name: row.name, tag: row.tag, leaderId: row.leader_id, memberCount: row.member_count },
      seed: row.seed,
      checkedIn: row.checked_in,
      status: row.status,
      finalRank: row.final_rank,
      enteredAt: new Date(row.entered_at),
    }));
  }

  async insertEntryIn(em: EntityManager, tournamentId: number, teamId: number, userId: number): Promise<void> {
    await em.execute('insert into tournament_entries (tournament_id, team_id, entered_by_id) values (?, ?, ?)', [tournamentId, teamId, userId], 'run');
  }

  async withdrawEntryIn(em: EntityManager, tournamentId: number, teamId: number): Promise<boolean> {
    const rows = await em.execute<{ id: number }[]>(
      `update tournament_entries set status = 'withdrawn', left_at = now() where tournament_id = ? and team_id = ? and status = 'entered' returning id`,
      [tournamentId, teamId],
    );
    return rows.length > 0;
  }

  async checkInIn(em: EntityManager, tournamentId: number, teamId: number): Promise<void> {
    await em.execute(`update tournament_entries set checked_in = true where tournament_id = ? and team_id = ? and status = 'entered'`, [tournamentId, teamId], 'run');
  }

  /** Seeds, drops and later eliminations and final ranks: one statement for the whole field. */
  async writeEntriesIn(em: EntityManager, tournamentId: number, entries: readonly { teamId: number; status: EntryStatus; seed: number | null; finalRank: number | null }[]): Promise<void> {
    if (entries.length === 0) return;
    await em.execute(
      `update tournament_entries e set status = v.status, seed = v.seed::int, final_rank = v.final_rank::int
       from (values ${entries.map(() => '(?::int, ?, ?, ?)').join(', ')}) as v(team_id, status, seed, final_rank)
       where e.tournament_id = ? and e.team_id = v.team_id and e.status <> 'withdrawn'`,
      [...entries.flatMap((e) => [e.teamId, e.status, e.seed, e.finalRank]), tournamentId],
      'run',
    );
  }

  async matches(tournamentId: number, em: EntityManager = this.db.em()): Promise<StoredMatch[]> {
    const rows = await em.execute<MatchRow[]>(`select ${MATCH} from tournament_matches where tournament_id = ? order by position`, [tournamentId]);
    return rows.map(toMatch);
  }

  /** Appends matches after those stored (the bracket at the start, a Swiss round later). */
  async insertMatchesIn(em: EntityManager, tournamentId: number, from: number, matches: readonly BracketMatch[]): Promise<void> {
    for (let start = 0; start < matches.length; start += 200) {
      const chunk = matches.slice(start, start + 200);
      await em.execute(
        `insert into tournament_matches (tournament_id, key, position, stage, round, number, home_source, away_source, home_team_id, away_team_id,
           status, flow, home_score, away_score, forfeit, winner_team_id, reported_by_team_id, dispute_reason)
         values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((m, i) => [tournamentId, m.key, from + start + i, m.stage, m.round, m.number, sourceText(m.homeSource), sourceText(m.awaySource),
          ...matchState(m)]),
        'run',
      );
    }
  }

  /** Writes the matches a change touched, in one statement whatever their number. */
  async updateMatchesIn(em: EntityManager, tournamentId: number, changed: readonly BracketMatch[]): Promise<void> {
    if (changed.length === 0) return;
    await em.execute(
      `update tournament_matches m set home_team_id = v.home::int, away_team_id = v.away::int, status = v.status, flow = v.flow,
         home_score = v.hs::int, away_score = v.away_score::int, forfeit = v.forfeit, winner_team_id = v.winner::int,
         reported_by_team_id = v.reporter::int, dispute_reason = v.reason, updated_at = now()
       from (values ${changed.map(() => '(?, ?::int, ?::int, ?, ?, ?::int, ?::int, ?, ?::int, ?::int, ?)').join(', ')})
         as v(key, home, away, status, flow, hs, away_score, forfeit, winner, reporter, reason)
       where m.tournament_id = ? and m.key = v.key`,
      [...changed.flatMap((m) => [m.key, ...matchState(m)]), tournamentId],
      'run',
    );
  }
}

function sourceText(source: SlotSource | null): string | null {
  return source === null ? null : `${source.match}:${source.take}`;
}

function parseSource(text: string | null): SlotSource | null {
  if (text === null) return null;
  const at = text.lastIndexOf(':');
  return { match: text.slice(0, at), take: text.slice(at + 1) as SlotSource['take'] };
}

function matchState(m: BracketMatch): unknown[] {
  return [m.homeTeamId, m.awayTeamId, m.status, m.flow, m.result?.homeScore ?? null, m.result?.awayScore ?? null, m.result?.forfeit ?? null,
    m.winnerTeamId, m.reportedByTeamId, m.disputeReason];
}

interface HeaderRow {
  id: number;
  name: string;
  format: string;
  kind: TournamentHeader['kind'];
  status: TournamentHeader['status'];
  max_teams: number;
  best_of: number;
  swiss_rounds: number | null;
  starts_at: Date | string;
  check_in_minutes: number;
  roster_locked: boolean;
  entry_fee: { amount: number; currency: string } | null;
  prizes: Prize[] | null;
  house_percent: number | null;
  version: number;
  created_at: Date | string;
}

function toRecord(row: HeaderRow): TournamentRecord {
  return {
    id: row.id, name: row.name, format: row.format, kind: row.kind, status: row.status, maxTeams: row.max_teams, bestOf: row.best_of,
    swissRounds: row.swiss_rounds, startsAt: new Date(row.starts_at), checkInMinutes: row.check_in_minutes, rosterLocked: row.roster_locked,
    entryFee: row.entry_fee, prizes: row.prizes, housePercent: row.house_percent, version: row.version, createdAt: new Date(row.created_at),
  };
}

interface EntryRow {
  tournament_id: number;
  seed: number | null;
  checked_in: boolean;
  status: EntryStatus;
  final_rank: number | null;
  entered_at: Date | string;
  team_id: number;
  name: string;
  tag: string;
  leader_id: number;
  member_count: number;
}

interface MatchRow {
  id: number;
  key: string;
  stage: StageKind;
  round: number;
  number: number;
  home_source: string | null;
  away_source: string | null;
  home_team_id: number | null;
  away_team_id: number | null;
  status: MatchStatus;
  flow: MatchFlow;
  home_score: number | null;
  away_score: number | null;
  forfeit: Forfeit | null;
  winner_team_id: number | null;
  reported_by_team_id: number | null;
  dispute_reason: string | null;
  lobby_code: string | null;
}

function toMatch(row: MatchRow): StoredMatch {
  return {
    id: row.id, key: row.key, stage: row.stage, round: row.round, number: row.number,
    homeSource: parseSource(row.home_source), awaySource: parseSource(row.away_source),
    homeTeamId: row.home_team_id, awayTeamId: row.away_team_id, status: row.status, flow: row.flow,
    result: row.home_score === null || row.away_score === null ? null : { homeScore: row.home_score, awayScore: row.away_score, forfeit: row.forfeit },
    winnerTeamId: row.winner_team_id, reportedByTeamId: row.reported_by_team_id, disputeReason: row.dispute_reason, lobbyCode: row.lobby_code,
  };
}
