import * as v from 'valibot';
import { defineRoute, tagAccess } from '../route-contract';
import { CupEntryOrder } from '../cups';
import {
  AdminResultBody, BracketView, DisputeBody, OkView, ReportBody, StandingView, TeamIdBody, TournamentCreateBody, TournamentEntryView,
  TournamentIdParams, TournamentListQuery, TournamentMatchParams, TournamentMatchView, TournamentPage, TournamentPatchBody,
  TournamentTeamParams, TournamentView,
} from '../tournaments';

const tag = 'Tournaments';
const { admin, anyone, session } = tagAccess(tag);

export const tournamentsRoutes = {
  create: defineRoute({
    operationId: 'createTournament', method: 'post', path: '/api/admin/tournaments', ...admin, body: TournamentCreateBody,
    summary: 'Create a tournament open for signups',
    description: 'An admin creates a tournament of one bracket kind for a lobby format. Swiss takes swiss_rounds (default ceil(log2 teams)); check_in_minutes 0 means no check-in; the roster is locked while it runs unless roster_locked is false. With entry_fee {amount, currency} it is a cup (see the Cups tag): currency "points" (the default kind a league uses) or the premium currency in cents; prizes [{rank, percent}] sum to at most 100 (default: the winner takes the pool) and house_percent is 0-50 (default 0). The fee terms are fixed at creation. A fee in the premium currency needs PayPal: on a server without PAYPAL_CLIENT_ID/PAYPAL_CLIENT_SECRET it is refused with 409 {error} (points cups work everywhere).',
    bodyExample: { name: 'Autumn Cup', format: '6v6', kind: 'double_elimination', max_teams: 16, best_of: 3, starts_at: '2026-12-01T18:00:00Z', check_in_minutes: 30 },
    success: { status: 201, schema: TournamentView }, errors: [400, 401, 403, 409],
  }),
  update: defineRoute({
    operationId: 'updateTournament', method: 'patch', path: '/api/admin/tournaments/:id', ...admin, params: TournamentIdParams, body: TournamentPatchBody,
    summary: 'Edit a tournament before it starts',
    description: 'Changes any creation field but a cup\'s fee terms while the tournament takes signups; after the start, or when max_teams would fall below the entries already in: 409.',
    bodyExample: { name: 'Autumn Cup (EU)', max_teams: 32 },
    success: { status: 200, schema: TournamentView }, errors: [400, 401, 403, 404, 409],
  }),
  cancel: defineRoute({
    operationId: 'cancelTournament', method: 'post', path: '/api/admin/tournaments/:id/cancel', ...admin, params: TournamentIdParams,
    summary: 'Cancel a tournament that has not completed',
    description: 'The tournament becomes cancelled and its rosters unlock; a completed or already cancelled one: 409. A cup refunds every paid entry: points to the ledger at once, money at PayPal by the refund worker (GET /api/admin/cups/{id}/refunds).',
    success: { status: 200, schema: TournamentView }, errors: [401, 403, 404, 409],
  }),
  start: defineRoute({
    operationId: 'startTournament', method: 'post', path: '/api/admin/tournaments/:id/start', ...admin, params: TournamentIdParams,
    summary: 'Start: drop no-shows, seed by average ELO, generate the bracket',
    description: 'With check-in on, teams that did not check in are dropped. The rest are seeded by the average ELO of their members (ties by entry time); byes go to the top seeds. Fewer than 2 teams, or not taking signups: 409.',
    success: { status: 200, schema: TournamentView }, errors: [401, 403, 404, 409],
  }),
  nextRound: defineRoute({
    operationId: 'pairNextSwissRound', method: 'post', path: '/api/admin/tournaments/:id/next-round', ...admin, params: TournamentIdParams,
    summary: 'Pair the next Swiss round',
    description: 'Pairs by score groups with no rematch while avoidable and gives the bye to the lowest-ranked team that has had none. 409 while a match of the current round is not confirmed, when every round was played, or for other kinds.',
    success: { status: 200, schema: BracketView }, errors: [401, 403, 404, 409],
  }),
  adminResult: defineRoute({
    operationId: 'setTournamentMatchResult', method: 'post', path: '/api/admin/tournaments/:id/matches/:match/result', ...admin,
    params: TournamentMatchParams, body: AdminResultBody,
    summary: 'Set or correct a match result',
    description: 'Sets any match that has both teams, also after its winner moved on. Unplayed matches that depended on it follow; when one was already played the answer is 409 unless reset_dependents is true, which clears it.',
    bodyExample: { home_score: 2, away_score: 1, reset_dependents: false },
    success: { status: 200, schema: TournamentMatchView }, errors: [400, 401, 403, 404, 409],
  }),
  list: defineRoute({
    operationId: 'listTournaments', method: 'get', path: '/api/tournaments', ...anyone, query: TournamentListQuery,
    summary: 'Tournaments, soonest start first',
    description: 'Optionally of one status; page is 1-indexed, limit default 20 (1-100).',
    success: { status: 200, schema: TournamentPage }, errors: [400],
  }),
  get: defineRoute({
    operationId: 'getTournament', method: 'get', path: '/api/tournaments/:id', ...anyone, params: TournamentIdParams,
    summary: 'One tournament with its entries', description: 'The tournament with every entry, its seed, check-in and status. Unknown: 404.',
    success: { status: 200, schema: TournamentView }, errors: [404],
  }),
  bracket: defineRoute({
    operationId: 'getTournamentBracket', method: 'get', path: '/api/tournaments/:id/bracket', ...anyone, params: TournamentIdParams,
    summary: 'The bracket: stages, rounds and matches',
    description: 'Empty stages before the start. Double elimination has winners, losers and grand_final stages.',
    success: { status: 200, schema: BracketView }, errors: [404],
  }),
  standings: defineRoute({
    operationId: 'getTournamentStandings', method: 'get', path: '/api/tournaments/:id/standings', ...anyone, params: TournamentIdParams,
    summary: 'Standings, final ranks once completed',
    description: 'Wins, losses, draws, points (3 a win, 1 a draw), score difference and, for Swiss, Buchholz. Elimination ranks by how far a team got.',
    success: { status: 200, schema: v.array(StandingView) }, errors: [404],
  }),
  enter: defineRoute({
    operationId: 'enterTournament', method: 'post', path: '/api/tournaments/:id/entries', ...session, params: TournamentIdParams, body: TeamIdBody,
    summary: 'Enter a team (its leader or a captain)',
    description: '409 when full, already entered, signups closed, the team has fewer members than the format needs, or one of its players is on another entered team (named). A points cup takes its fee from the caller\'s wallet in the same transaction (402 when short, nothing written). A money cup answers 200 {order_id, approval_url}: a PayPal order, holding no place, that POST /api/cups/{id}/entries/capture turns into the entry once paid.',
    bodyExample: { team_id: 12 },
    success: { status: 201, schema: TournamentEntryView },
    alsoSuccess: [{ status: 200, schema: CupEntryOrder, description: 'A money cup: pay this PayPal order, then capture it' }],
    errors: [400, 401, 402, 403, 404, 409, 502, 503],
  }),
  withdraw: defineRoute({
    operationId: 'withdrawTournamentEntry', method: 'delete', path: '/api/tournaments/:id/entries/:team', ...session, params: TournamentTeamParams,
    summary: 'Withdraw a team before the start',
    description: 'By its leader or a captain; after the start: 409. A cup refunds the fee: points to the ledger at once, money at PayPal.',
    success: { status: 204 }, errors: [401, 403, 404, 409],
  }),
  checkIn: defineRoute({
    operationId: 'checkInTournament', method: 'post', path: '/api/tournaments/:id/check-in', ...session, params: TournamentIdParams, body: TeamIdBody,
    summary: 'Check an entered team in',
    description: 'Any member of the entered team, inside the window of check_in_minutes before starts_at; outside it (or with check-in off): 409.',
    bodyExample: { team_id: 12 },
    success: { status: 200, schema: OkView }, errors: [400, 401, 403, 404, 409],
  }),
  report: defineRoute({
    operationId: 'reportTournamentMatch', method: 'post', path: '/api/tournaments/:id/matches/:match/report', ...session,
    params: TournamentMatchParams, body: ReportBody,
    summary: 'Report a match score (leader or captain of either team)',
    description: 'The match becomes reported and waits for the other team. Not ready: 409; not in the match: 403; a draw in an elimination stage: 400.',
    bodyExample: { home_score: 2, away_score: 1 },
    success: { status: 200, schema: TournamentMatchView }, errors: [400, 401, 403, 404, 409],
  }),
  confirm: defineRoute({
    operationId: 'confirmTournamentMatch', method: 'post', path: '/api/tournaments/:id/matches/:match/confirm', ...session,
    params: TournamentMatchParams,
    summary: 'Confirm the other team\'s report',
    description: 'The result stands: the winner advances at once, the loser drops or moves to the losers\' bracket. Only the other team: 403; nothing reported: 409.',
    success: { status: 200, schema: TournamentMatchView }, errors: [401, 403, 404, 409],
  }),
  dispute: defineRoute({
    operationId: 'disputeTournamentMatch', method: 'post', path: '/api/tournaments/:id/matches/:match/dispute', ...session,
    params: TournamentMatchParams, body: DisputeBody,
    summary: 'Dispute the other team\'s report',
    description: 'The match waits for an admin result. Only the other team: 403; nothing reported: 409.',
    bodyExample: { reason: 'The score was 2-1 for us' },
    success: { status: 200, schema: TournamentMatchView }, errors: [400, 401, 403, 404, 409],
  }),
};
