import * as v from 'valibot';
import { IntegerParam } from '../common';
import { LobbySummary } from '../lobby';
import {
  Announcement,
  ChangelogEntry,
  ChangelogQuery,
  GlobalStats,
  LeaderRow,
  MatchDetail,
  MatchesPage,
  MatchesQuery,
  MatchPlayer,
  SummaryBody,
} from '../public';
import { defineRoute } from '../route-contract';

const MatchIdParams = v.object({ id: IntegerParam });
const tag = 'Public';

export const publicRoutes = {
  summary: defineRoute({
    operationId: 'getPublicSummary', method: 'get', path: '/api/public/summary', tag, auth: [],
    summary: 'Aggregate statistics',
    description:
      'The league\'s totals for the front page: users, matches, matches today, active lobbies, players in lobbies and users online. Cached for 30 s (Cache-Control).',
    success: { status: 200, schema: SummaryBody }, errors: [], publicCache: true,
  }),
  lobbies: defineRoute({
    operationId: 'listPublicLobbies', method: 'get', path: '/api/public/lobbies', tag, auth: [],
    summary: 'Open lobbies',
    description:
      'LobbySummary of every lobby that is not ended or cancelled. Live clients subscribe with `lobbies:subscribe` instead of polling.',
    success: { status: 200, schema: v.array(LobbySummary) }, errors: [], publicCache: true,
  }),
  leaderboard: defineRoute({
    operationId: 'getPublicLeaderboard', method: 'get', path: '/api/public/leaderboard', tag, auth: [],
    summary: 'Top 100 players by ELO',
    description:
      'Players ranked by ELO, as the front page shows them; cached for 30 s.',
    success: { status: 200, schema: v.array(LeaderRow) }, errors: [], publicCache: true,
  }),
  matches: defineRoute({
    operationId: 'listPublicMatches', method: 'get', path: '/api/public/matches', tag, auth: [],
    summary: 'Recent matches, newest first (limit default 50, max 200; page 1-indexed)', query: MatchesQuery,
    description:
      'Reported matches, newest first, one page at a time (page is 1-based).',
    success: { status: 200, schema: MatchesPage }, errors: [400], publicCache: true,
  }),
  match: defineRoute({
    operationId: 'getPublicMatch', method: 'get', path: '/api/public/match/:id', tag, auth: [],
    summary: 'Match detail with its players', params: MatchIdParams,
    description:
      'One reported match with its score, map, format and times; 404 for an unknown id.',
    success: { status: 200, schema: MatchDetail }, errors: [404], publicCache: true,
  }),
  matchPlayers: defineRoute({
    operationId: 'getPublicMatchPlayers', method: 'get', path: '/api/public/match/:id/players', tag, auth: [],
    summary: 'Players of a match', params: MatchIdParams,
    description:
      'The players of one reported match with their team, class, rating before and after, and whether they won; 404 for an unknown id.',
    success: { status: 200, schema: v.array(MatchPlayer) }, errors: [404], publicCache: true,
  }),
  changelog: defineRoute({
    operationId: 'getPublicChangelog', method: 'get', path: '/api/public/changelog', tag, auth: [],
    summary: 'Changelog, newest first (limit default 20, max 100)', query: ChangelogQuery,
    description:
      'Changelog entries, newest first, as admins published them.',
    success: { status: 200, schema: v.array(ChangelogEntry) }, errors: [400], publicCache: true,
  }),
  announcement: defineRoute({
    operationId: 'getActiveAnnouncement', method: 'get', path: '/api/public/announcements/active', tag, auth: [],
    summary: 'The active announcement (active: false when none)',
    description:
      'The newest announcement whose window contains now, or null.',
    success: { status: 200, schema: Announcement }, errors: [],
    publicCache: true,
  }),
  globalStats: defineRoute({
    operationId: 'getGlobalStats', method: 'get', path: '/api/users/stats/global', tag: 'Users', auth: [],
    summary: 'Global statistics (same as the summary stats)',
    description:
      'League totals: users, matches, matches today, active lobbies, players in lobbies and users online.',
    success: { status: 200, schema: GlobalStats }, errors: [],
    publicCache: true,
  }),
};
