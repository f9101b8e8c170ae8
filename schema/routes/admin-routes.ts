import * as v from 'valibot';
import {
  AnnouncementBody, AnnouncementPatch, AnnouncementView, AuditPage, AuditQuery, BanCreateBody, BanListQuery, BanLiftBody, BanPage,
  BanView, ChangelogBody, ChangelogPatch, EloOverrideBody, EloOverrideResult, ForceEndBody, IdParams, RatingHistoryEntry,
} from '../admin';
import { LobbyDetail } from '../lobby';
import { LobbyCodeParams } from '../lobby-bodies';
import { ChangelogEntry } from '../public';
import { defineRoute, tagAccess } from '../route-contract';

const tag = 'Admin';
/** Every admin route: an admin's session or an admin key (none: 401; a non-admin: 403). */
const { admin } = tagAccess(tag);

export const adminRoutes = {
  createBan: defineRoute({
    operationId: 'createBan', method: 'post', path: '/api/admin/bans', ...admin, body: BanCreateBody,
    description:
      'Bans a user until expires_at (in the future, else 400) or until lifted, and writes an admin audit row; a banned user leaves their open lobby (not a live match) at once. Admins only; 404 for an unknown user, 409 when an admin tries to ban themselves.',
    bodyExample: { user_id: 1234, reason: 'Repeated griefing in lobbies', expires_at: '2026-12-25T00:00:00.000Z' },
    summary: 'Ban a user (until expires_at, or until lifted); they leave their open lobby and get 403 on lobby create, join, party-join, chat and party create at once',
    success: { status: 201, schema: BanView }, errors: [400, 401, 403, 404, 409],
  }),
  listBans: defineRoute({
    operationId: 'listBans', method: 'get', path: '/api/admin/bans', ...admin, query: BanListQuery,
    description:
      'Bans newest first, filtered by status (active, past or all) and optionally by user; paged with limit (default 50, max 200). Admins only; 400 for an out-of-range filter.',
    summary: 'Bans, newest first: status active, past or all (default), optionally of one user; limit default 50, max 200',
    success: { status: 200, schema: BanPage }, errors: [400, 401, 403],
  }),
  liftBan: defineRoute({
    operationId: 'liftBan', method: 'post', path: '/api/admin/bans/:id/lift', ...admin, params: IdParams, body: BanLiftBody,
    description:
      'Ends a ban now, with an optional reason, and writes an admin audit row. Admins only; 404 for an unknown ban, 409 when it is no longer in force (expired or already lifted).',
    bodyExample: { reason: 'Appeal accepted' },
    summary: 'End a ban now; a ban no longer in force: 409', success: { status: 200, schema: BanView }, errors: [400, 401, 403, 404, 409],
  }),
  overrideElo: defineRoute({
    operationId: 'overrideUserElo', method: 'post', path: '/api/admin/users/:id/elo', ...admin, params: IdParams, body: EloOverrideBody,
    description:
      'Sets a user\'s rating to a value from 0 to 5000 with a reason; it appears in their rating history and in the admin audit. Admins only; 404 for an unknown user.',
    bodyExample: { elo: 1650, reason: 'Rating reset after smurf account review' },
    summary: "Set a user's rating (0 to 5000); shows in their rating history and, within its 30 s cache, the leaderboard",
    success: { status: 200, schema: EloOverrideResult }, errors: [400, 401, 403, 404],
  }),
  listAnnouncements: defineRoute({
    operationId: 'listAnnouncements', method: 'get', path: '/api/admin/announcements', ...admin,
    description:
      'Every announcement, newest first, including ones not yet shown or already over. Admins only.',
    summary: 'Every announcement, newest first', success: { status: 200, schema: v.array(AnnouncementView) }, errors: [401, 403],
  }),
  createAnnouncement: defineRoute({
    operationId: 'createAnnouncement', method: 'post', path: '/api/admin/announcements', ...admin, body: AnnouncementBody,
    description:
      'Publishes an announcement shown from starts_at (default now) until ends_at (null: until deleted); the active one is the newest whose window contains now. Admins only, audited; 400 when ends_at is not after starts_at.',
    bodyExample: { title: 'Scheduled maintenance', body: 'Servers restart at 04:00 UTC for about ten minutes.', level: 'warning', starts_at: '2026-12-01T00:00:00.000Z', ends_at: '2026-12-02T06:00:00.000Z' },
    summary: 'Publish an announcement for [starts_at (default now), ends_at (null: open-ended)); the active one is the newest whose window contains now',
    success: { status: 201, schema: AnnouncementView }, errors: [400, 401, 403],
  }),
  updateAnnouncement: defineRoute({
    operationId: 'updateAnnouncement', method: 'patch', path: '/api/admin/announcements/:id', ...admin, params: IdParams, body: AnnouncementPatch,
    description:
      'Changes only the fields given; ends_at null makes the announcement open-ended. Admins only, audited; 404 for an unknown id, 400 when the window would end before it starts.',
    bodyExample: { ends_at: '2026-12-03T06:00:00.000Z' },
    summary: 'Edit an announcement (only the fields given)', success: { status: 200, schema: AnnouncementView }, errors: [400, 401, 403, 404],
  }),
  deleteAnnouncement: defineRoute({
    operationId: 'deleteAnnouncement', method: 'delete', path: '/api/admin/announcements/:id', ...admin, params: IdParams,
    description:
      'Deletes an announcement for good. Admins only, audited; 404 for an unknown id.',
    summary: 'Delete an announcement', success: { status: 204 }, errors: [401, 403, 404],
  }),
  createChangelog: defineRoute({
    operationId: 'createChangelogEntry', method: 'post', path: '/api/admin/changelog', ...admin, body: ChangelogBody,
    description:
      'Adds an entry to the public changelog (GET /api/public/changelog). Admins only, audited.',
    bodyExample: { version: '1.4.0', title: 'Team rooms', body: 'Teams now have a live room: roster changes show up without a reload.' },
    summary: 'Add a changelog entry (shown on /api/public/changelog)', success: { status: 201, schema: ChangelogEntry }, errors: [400, 401, 403],
  }),
  updateChangelog: defineRoute({
    operationId: 'updateChangelogEntry', method: 'patch', path: '/api/admin/changelog/:id', ...admin, params: IdParams, body: ChangelogPatch,
    description:
      'Changes only the fields given of a changelog entry. Admins only, audited; 404 for an unknown id.',
    bodyExample: { title: 'Team rooms and invites' },
    summary: 'Edit a changelog entry (only the fields given)', success: { status: 200, schema: ChangelogEntry }, errors: [400, 401, 403, 404],
  }),
  deleteChangelog: defineRoute({
    operationId: 'deleteChangelogEntry', method: 'delete', path: '/api/admin/changelog/:id', ...admin, params: IdParams,
    description:
      'Deletes a changelog entry. Admins only, audited; 404 for an unknown id.',
    summary: 'Delete a changelog entry', success: { status: 204 }, errors: [401, 403, 404],
  }),
  forceEndLobby: defineRoute({
    operationId: 'forceEndLobby', method: 'post', path: '/api/admin/lobbies/:code/force-end', ...admin, params: LobbyCodeParams, body: ForceEndBody,
    description:
      'Cancels a lobby stuck in any open phase: no match is recorded, its players are free at once, watchers get the update, and a pinned game server is released. Admins only, audited with the reason; 404 for an unknown lobby, 409 when it is already closed.',
    bodyExample: { reason: 'Server crashed mid-draft' },
    summary: 'End a stuck lobby in any open phase (it becomes cancelled, no match is recorded); its players are free at once and watchers get the update; closed already: 409',
    success: { status: 200, schema: LobbyDetail }, errors: [400, 401, 403, 404, 409],
  }),
  audit: defineRoute({
    operationId: 'listAdminAudit', method: 'get', path: '/api/admin/audit', ...admin, query: AuditQuery,
    description:
      'The admin audit log, newest first, each row with the value before and after; filter by actor_id, target_type with target_id, and action; limit default 50, max 200. Admins only.',
    summary: 'Every admin action, newest first, filterable by actor_id, target_type + target_id and action; limit default 50, max 200',
    success: { status: 200, schema: AuditPage }, errors: [400, 401, 403],
  }),
  ratingHistory: defineRoute({
    operationId: 'getRatingHistory', method: 'get', path: '/api/users/:platformId/rating-history', tag: 'Users', auth: [],
    description:
      'A user\'s rating history by platform id, newest first: every match that moved their rating and every admin correction (the last 100). Anyone may call it; 404 for an unknown user.',
    params: v.object({ platformId: v.pipe(v.string(), v.regex(/^\d{1,20}$/)) }),
    summary: 'A user’s rating history, newest first: every match that moved it and every admin correction (last 100)',
    success: { status: 200, schema: v.array(RatingHistoryEntry) }, errors: [404],
  }),
};
