import type { LobbySummary } from '../../schema/lobby';
import type { Announcement, ChangelogEntry, GlobalStats, LeaderRow, MatchDetail, MatchSummary } from '../../schema/public';
import type { CachedAnswer, SerializedCache } from './serialized-cache';

/** What the durable store answers for the public pages. */
export interface DurablePublicSource {
  counts(now: Date): Promise<{ totalUsers: number; totalMatches: number; matchesToday: number }>;
  leaderboard(limit: number): Promise<LeaderRow[]>;
  recentMatches(limit: number, page: number): Promise<{ matches: MatchSummary[]; total: number }>;
  matchDetail(id: number): Promise<MatchDetail | null>;
  changelog(limit: number): Promise<ChangelogEntry[]>;
  activeAnnouncement(now: Date): Promise<Omit<Announcement, 'active'> | null>;
}

/** What the live side answers: open lobbies and who is online. */
export interface LivePublicSource {
  openLobbies(): Promise<LobbySummary[]>;
  onlineCount(now: number): Promise<number>;
}

export const LEADERBOARD_SIZE = 100;

type Answer = CachedAnswer | Promise<CachedAnswer>;

const NO_ANNOUNCEMENT: Announcement = { id: null, title: null, body: null, level: null, starts_at: null, ends_at: null, active: false };

/**
 * The public reads, each answered from pre-serialised bytes (see SerializedCache). The cache key's
 * first segment is its topic, invalidated by the change that makes it stale:
 * `matches` (a report), `lobbies` (a lobby change), `content` (changelog, announcements).
 */
export class PublicReads {
  constructor(
    private readonly durable: DurablePublicSource,
    private readonly live: LivePublicSource,
    readonly cache: SerializedCache,
    private readonly clock: () => number,
  ) {}

  summary(): Answer {
    return this.cache.get('lobbies:summary', async () => ({ status: 200, body: { stats: await this.stats() } }));
  }

  globalStats(): Answer {
    return this.cache.get('lobbies:stats', async () => ({ status: 200, body: await this.stats() }));
  }

  lobbies(): Answer {
    return this.cache.get('lobbies:list', async () => ({ status: 200, body: await this.live.openLobbies() }));
  }

  leaderboard(): Answer {
    return this.cache.get('matches:leaderboard', async () => ({ status: 200, body: await this.durable.leaderboard(LEADERBOARD_SIZE) }));
  }

  matches(limit: number, page: number): Answer {
    return this.cache.get(`matches:page:${limit}:${page}`, async () => {
      const { matches, total } = await this.durable.recentMatches(limit, page);
      return { status: 200, body: { matches, total, page, limit } };
    });
  }

  match(id: number): Answer {
    return this.cache.get(`matches:detail:${id}`, async () => {
      const detail = await this.durable.matchDetail(id);
      return detail ? { status: 200, body: detail } : { status: 404, body: { error: 'match not found' } };
    });
  }

  matchPlayers(id: number): Answer {
    return this.cache.get(`matches:players:${id}`, async () => {
      const detail = await this.durable.matchDetail(id);
      return detail ? { status: 200, body: detail.players } : { status: 404, body: { error: 'match not found' } };
    });
  }

  changelog(limit: number): Answer {
    return this.cache.get(`content:changelog:${limit}`, async () => ({ status: 200, body: await this.durable.changelog(limit) }));
  }

  announcement(): Answer {
    return this.cache.get('content:announcement', async () => {
      const active = await this.durable.activeAnnouncement(new Date(this.clock()));
      return { status: 200, body: active ? { ...active, active: true } : NO_ANNOUNCEMENT };
    });
  }

  private async stats(): Promise<GlobalStats> {
    const now = this.clock();
    const [counts, lobbies, online] = await Promise.all([
      this.durable.counts(new Date(now)),
      this.live.openLobbies(),
      this.live.onlineCount(now),
    ]);
    return {
      total_users: counts.totalUsers,
      total_matches: counts.totalMatches,
      matches_today: counts.matchesToday,
      active_lobbies: lobbies.length,
      players_in_lobbies: lobbies.reduce((sum, lobby) => sum + lobby.players, 0),
      online_users: online,
    };
  }
}
