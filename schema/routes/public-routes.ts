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
    summary: 'Aggregate statistics', success: { status: 200, schema: SummaryBody }, errors: [], publicCache: true,
  }),
  lobbies: defineRoute({
    operationId: 'listPublicLobbies', method: 'get', path: '/api/public/lobbies', tag, auth: [],
    summary: 'Open lobbies', success: { status: 200, schema: v.array(LobbySummary) }, errors: [], publicCache: true,
  }),
  leaderboard: defineRoute({
    operationId: 'getPublicLeaderboard', method: 'get', path: '/api/public/leaderboard', tag, auth: [],
    summary: 'Top 100 players by ELO', success: { status: 200, schema: v.array(LeaderRow) }, errors: [], publicCache: true,
  }),
  matches: defineRoute({
    operationId: 'listPublicMatches', method: 'get', path: '/api/public/matches', tag, auth: [],
    summary: 'Recent matches, newest first (limit default 50, max 200; page 1-indexed)', query: MatchesQuery,
    success: { status: 200, schema: MatchesPage }, errors: [400], publicCache: true,
  }),
  match: defineRoute({
    operationId: 'getPublicMatch', method: 'get', path: '/api/public/match/:id', tag, auth: [],
    summary: 'Match detail with its players', params: MatchIdParams,
    success: { status: 200, schema: MatchDetail }, errors: [404], publicCache: true,
  }),
  matchPlayers: defineRoute({
    operationId: 'getPublicMatchPlayers', method: 'get', path: '/api/public/match/:id/players', tag, auth: [],
    summary: 'Players of a match', params: MatchIdParams,
    success: { status: 200, schema: v.array(MatchPlayer) }, errors: [404], publicCache: true,
  }),
  changelog: defineRoute({
    operationId: 'getPublicChangelog', method: 'get', path: '/api/public/changelog', tag, auth: [],
    summary: 'Changelog, newest first (limit default 20, max 100)', query: ChangelogQuery,
    success: { status: 200, schema: v.array(ChangelogEntry) }, errors: [400], publicCache: true,
  }),
  announcement: defineRoute({
    operationId: 'getActiveAnnouncement', method: 'get', path: '/api/public/announcements/active', tag, auth: [],
    summary: 'The active announcement (active: false when none)', success: { status: 200, schema: Announcement }, errors: [],
    publicCache: true,
  }),
  globalStats: defineRoute({
    operationId: 'getGlobalStats', method: 'get', path: '/api/users/stats/global', tag: 'Users', auth: [],
    summary: 'Global statistics (same as the summary stats)', success: { status: 200, schema: GlobalStats }, errors: [],
    publicCache: true,
  }),
};
