import type {
  Announcement,
  ChangelogEntry,
  GlobalStats,
  MatchDetail,
  MatchPlayer,
  MatchSummary,
} from '../../schema/public';
import type { EmSource } from './orm';
import { USER_PUBLIC_COLUMNS, userPublicOf, type UserPublicRow } from './user-public-row';

/** The durable half of GlobalStats; the live half (lobbies, players in lobbies, online) comes from the live store. */
export type DurableStats = Pick<GlobalStats, 'total_users' | 'total_matches' | 'matches_today'> & {
  /** The highest ELO, or null when there are no users. */
  top_elo: number | null;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** Anonymous reads, answered in the wire shapes of schema/public.ts. */
export class PublicReadRepository {
  constructor(private readonly db: EmSource) {}

  /** matches_today counts matches that ended in the 24 hours before `now`. */
  async globalStats(now: Date): Promise<DurableStats> {
    const [row] = await this.db.em().execute<StatsRow[]>(
      `select
         (select count(*) from users)::int as total_users,
         (select count(*) from matches)::int as total_matches,
         (select count(*) from matches where ended_at > ?)::int as matches_today,
         (select max(elo) from users) as top_elo`,
      [new Date(now.getTime() - DAY_MS)],
    );
    return row;
  }

  /** Newest first; page is 1-based. */
  async recentMatches(limit: number, page: number): Promise<{ matches: MatchSummary[]; total: number }> {
    const em = this.db.em();
    const [rows, [count]] = await Promise.all([
      em.execute<MatchRow[]>(`${MATCH_SELECT} order by m.ended_at desc, m.id desc limit ? offset ?`, [
        limit,
        (Math.max(1, page) - 1) * limit,
      ]),
      em.execute<{ total: number }[]>('select count(*)::int as total from matches'),
    ]);
    return { matches: rows.map(toMatchSummary), total: count.total };
  }

  async matchById(id: number): Promise<MatchDetail | null> {
    const em = this.db.em();
    const [rows, players] = await Promise.all([
      em.execute<MatchRow[]>(`${MATCH_SELECT} where m.id = ?`, [id]),
      this.playersOf(id),
    ]);
    return rows.length === 0 ? null : { ...toMatchSummary(rows[0]), players };
  }

  /** Null when the match does not exist (an existing match always has its players). */
  async matchPlayers(id: number): Promise<MatchPlayer[] | null> {
    const em = this.db.em();
    const [exists, players] = await Promise.all([
      em.execute<{ id: number }[]>('select id from matches where id = ?', [id]),
      this.playersOf(id),
    ]);
    return exists.length === 0 ? null : players;
  }

  /** Newest first. */
  async changelog(limit: number): Promise<ChangelogEntry[]> {
    const rows = await this.db.em().execute<ChangelogRow[]>(
      'select id, version, title, body, created_at from changelog_entries order by created_at desc, id desc limit ?',
      [limit],
    );
    return rows.map((row) => ({
      id: row.id,
      version: row.version,
      title: row.title,
      body: row.body,
      created_at: iso(row.created_at),
    }));
  }

  /** The newest announcement whose [starts_at, ends_at) window contains `now`, or null. */
  async activeAnnouncement(now: Date): Promise<Announcement | null> {
    const rows = await this.db.em().execute<AnnouncementRow[]>(
      `select id, title, body, level, starts_at, ends_at from announcements
       where starts_at <= ? and (ends_at is null or ends_at > ?)
       order by created_at desc, id desc limit 1`,
      [now, now],
    );
    if (rows.length === 0) return null;
    const row = rows[0];
    return {
      id: row.id,
      title: row.title,
      body: row.body,
      level: row.level,
      starts_at: iso(row.starts_at),
      ends_at: row.ends_at === null ? null : iso(row.ends_at),
      active: true,
    };
  }

  private async playersOf(matchId: number): Promise<MatchPlayer[]> {
    const rows = await this.db.em().execute<PlayerRow[]>(
      `select mp.team, mp.class, mp.elo_before, mp.elo_after, mp.won,
              ${USER_PUBLIC_COLUMNS}
       from match_players mp join users u on u.id = mp.user_id
       where mp.match_id = ?
       order by mp.team desc, mp.id`,
      [matchId],
    );
    return rows.map((row) => ({
      user: userPublicOf(row),
      team: row.team,
      class: row.class,
      elo_before: row.elo_before,
      elo_after: row.elo_after,
      elo_change: row.elo_after - row.elo_before,
      won: row.won,
    }));
  }
}

const MATCH_SELECT = `
  select m.id, m.lobby_code, m.format, m.map, m.score_red, m.score_blu, m.winner, m.duration_seconds,
         m.started_at, m.ended_at,
         (select count(*) from match_players mp where mp.match_id = m.id)::int as player_count
  from matches m`;

/** Raw rows carry timestamptz as Postgres text ("2026-01-02 03:04:05.678+00"), which Date parses. */
type PgTimestamp = string | Date;

function iso(value: PgTimestamp): string {
  return new Date(value).toISOString();
}

function toMatchSummary(row: MatchRow): MatchSummary {
  return {
    id: row.id,
    lobby_code: row.lobby_code,
    format: row.format,
    map: row.map,
    score_red: row.score_red,
    score_blu: row.score_blu,
    winner: row.winner,
    duration_seconds: row.duration_seconds,
    started_at: iso(row.started_at),
    ended_at: iso(row.ended_at),
    player_count: row.player_count,
  };
}

interface StatsRow {
  total_users: number;
  total_matches: number;
  matches_today: number;
  top_elo: number | null;
}

interface MatchRow {
  id: number;
  lobby_code: string;
  format: string;
  map: string | null;
  score_red: number;
  score_blu: number;
  winner: 'red' | 'blu' | 'draw';
  duration_seconds: number;
  started_at: PgTimestamp;
  ended_at: PgTimestamp;
  player_count: number;
}

interface PlayerRow extends UserPublicRow {
  team: 'red' | 'blu';
  class: string;
  elo_before: number;
  elo_after: number;
  won: boolean | null;
}

interface ChangelogRow {
  id: number;
  version: string | null;
  title: string;
  body: string;
  created_at: PgTimestamp;
}

interface AnnouncementRow {
  id: number;
  title: string;
  body: string;
  level: 'info' | 'warning' | 'critical';
  starts_at: PgTimestamp;
  ends_at: PgTimestamp | null;
}
