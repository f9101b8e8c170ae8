import type { PublicReadRepository } from '../db/public-read-repository';
import { toUserPublic } from '../db/user-record';
import type { UsersRepository } from '../db/users-repository';
import type { DurablePublicSource } from './public-reads';

/** The public pages' durable half, answered by the repositories. */
export function durablePublicSource(reads: PublicReadRepository, users: UsersRepository): DurablePublicSource {
  return {
    async counts(now) {
      const stats = await reads.globalStats(now);
      return { totalUsers: stats.total_users, totalMatches: stats.total_matches, matchesToday: stats.matches_today };
    },
    async leaderboard(limit) {
      const top = await users.leaderboard(limit);
      return top.map((user, i) => ({
        rank: i + 1,
        user: toUserPublic(user),
        elo: user.elo,
        matches_played: user.matchesPlayed,
        wins: user.wins,
        losses: user.losses,
      }));
    },
    recentMatches: (limit, page) => reads.recentMatches(limit, page),
    matchDetail: (id) => reads.matchById(id),
    changelog: (limit) => reads.changelog(limit),
    async activeAnnouncement(now) {
      const active = await reads.activeAnnouncement(now);
      if (!active) return null;
      const { active: _active, ...rest } = active;
      return rest;
    },
  };
}
