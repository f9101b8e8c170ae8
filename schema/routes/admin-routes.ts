import * as v from 'valibot';
import {
  AnnouncementBody, AnnouncementPatch, AnnouncementView, AuditPage, AuditQuery, BanCreateBody, BanListQuery, BanLiftBody, BanPage,
  BanView, ChangelogBody, ChangelogPatch, EloOverrideBody, EloOverrideResult, ForceEndBody, IdParams, RatingHistoryEntry,
} from '../admin';
import { LobbyDetail } from '../lobby';
import { LobbyCodeParams } from '../lobby-bodies';
import { ChangelogEntry } from '../public';
import { defineRoute, type Credential } from '../route-contract';

const tag = 'Admin';
/** Every admin route: an admin's session or an admin key (none: 401; a non-admin: 403). */
const admin = { tag, auth: ['session', 'admin'] as Credential[], role: 'admin' as const };

export const adminRoutes = {
  createBan: defineRoute({
    operationId: 'createBan', method: 'post', path: '/api/admin/bans', ...admin, body: BanCreateBody,
    summary: 'Ban a user (until expires_at, or until lifted); they leave their open lobby and get 403 on lobby create, join, party-join, chat and party create at once',
    success: { status: 201, schema: BanView }, errors: [400, 401, 403, 404, 409],
  }),
  listBans: defineRoute({
    operationId: 'listBans', method: 'get', path: '/api/admin/bans', ...admin, query: BanListQuery,
    summary: 'Bans, newest first: status active, past or all (default), optionally of one user; limit default 50, max 200',
    success: { status: 200, schema: BanPage }, errors: [400, 401, 403],
  }),
  liftBan: defineRoute({
    operationId: 'liftBan', method: 'post', path: '/api/admin/bans/:id/lift', ...admin, params: IdParams, body: BanLiftBody,
    summary: 'End a ban now; a ban no longer in force: 409', success: { status: 200, schema: BanView }, errors: [400, 401, 403, 404, 409],
  }),
  overrideElo: defineRoute({
    operationId: 'overrideUserElo', method: 'post', path: '/api/admin/users/:id/elo', ...admin, params: IdParams, body: EloOverrideBody,
    summary: "Set a user's rating (0 to 5000); shows in their rating history and, within its 30 s cache, the leaderboard",
    success: { status: 200, schema: EloOverrideResult }, errors: [400, 401, 403, 404],
  }),
  listAnnouncements: defineRoute({
    operationId: 'listAnnouncements', method: 'get', path: '/api/admin/announcements', ...admin,
    summary: 'Every announcement, newest first', success: { status: 200, schema: v.array(AnnouncementView) }, errors: [401, 403],
  }),
  createAnnouncement: defineRoute({
    operationId: 'createAnnouncement', method: 'post', path: '/api/admin/announcements', ...admin, body: AnnouncementBody,
    summary: 'Publish an announcement for [starts_at (default now), ends_at (null: open-ended)); the active one is the newest whose window contains now',
    success: { status: 201, schema: AnnouncementView }, errors: [400, 401, 403],
  }),
  updateAnnouncement: defineRoute({
    operationId: 'updateAnnouncement', method: 'patch', path: '/api/admin/announcements/:id', ...admin, params: IdParams, body: AnnouncementPatch,
    summary: 'Edit an announcement (only the fields given)', success: { status: 200, schema: AnnouncementView }, errors: [400, 401, 403, 404],
  }),
  deleteAnnouncement: defineRoute({
    operationId: 'deleteAnnouncement', method: 'delete', path: '/api/admin/announcements/:id', ...admin, params: IdParams,
    summary: 'Delete an announcement', success: { status: 204 }, errors: [401, 403, 404],
  }),
  createChangelog: defineRoute({
    operationId: 'createChangelogEntry', method: 'post', path: '/api/admin/changelog', ...admin, body: ChangelogBody,
    summary: 'Add a changelog entry (shown on /api/public/changelog)', success: { status: 201, schema: ChangelogEntry }, errors: [400, 401, 403],
  }),
  updateChangelog: defineRoute({
    operationId: 'updateChangelogEntry', method: 'patch', path: '/api/admin/changelog/:id', ...admin, params: IdParams, body: ChangelogPatch,
    summary: 'Edit a changelog entry (only the fields given)', success: { status: 200, schema: ChangelogEntry }, errors: [400, 401, 403, 404],
  }),
  deleteChangelog: defineRoute({
    operationId: 'deleteChangelogEntry', method: 'delete', path: '/api/admin/changelog/:id', ...admin, params: IdParams,
    summary: 'Delete a changelog entry', success: { status: 204 }, errors: [401, 403, 404],
  }),
  forceEndLobby: defineRoute({
    operationId: 'forceEndLobby', method: 'post', path: '/api/admin/lobbies/:code/force-end', ...admin, params: LobbyCodeParams, body: ForceEndBody,
    summary: 'End a stuck lobby in any open phase (it becomes cancelled, no match is recorded); its players are free at once and watchers get the update; closed already: 409',
    success: { status: 200, schema: LobbyDetail }, errors: [400, 401, 403, 404, 409],
  }),
  audit: defineRoute({
    operationId: 'listAdminAudit', method: 'get', path: '/api/admin/audit', ...admin, query: AuditQuery,
    summary: 'Every admin action, newest first, filterable by actor_id, target_type + target_id and action; limit default 50, max 200',
    success: { status: 200, schema: AuditPage }, errors: [400, 401, 403],
  }),
  ratingHistory: defineRoute({
    operationId: 'getRatingHistory', method: 'get', path: '/api/users/:platformId/rating-history', tag: 'Users', auth: [],
    params: v.object({ platformId: v.pipe(v.string(), v.regex(/^\d{1,20}$/)) }),
    summary: 'A user’s rating history, newest first: every match that moved it and every admin correction (last 100)',
    success: { status: 200, schema: v.array(RatingHistoryEntry) }, errors: [404],
  }),
};
