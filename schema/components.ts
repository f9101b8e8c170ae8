import type * as v from 'valibot';
import * as admin from './admin';
import * as approvals from './approvals';
import * as clientLogs from './client-logs';
import * as community from './community';
import * as cups from './cups';
import { ErrorBody, OkBody } from './common';
import * as identity from './identity';
import * as lobby from './lobby';
import * as lobbyBodies from './lobby-bodies';
import * as lobbyServer from './lobby-server';
import * as maps from './maps';
import * as notifications from './notifications';
import * as party from './party';
import * as points from './points';
import * as premium from './premium';
import * as pub from './public';
import * as servers from './servers';
import * as teams from './teams';
import * as tournaments from './tournaments';
import { UserPublic } from './user';

/**
 * The named schemas of the OpenAPI document (`#/components/schemas/<Name>`): every record of the
 * specification and its request bodies, so a generated client gets named types instead of
 * anonymous inline ones. Wherever a route's success, body or a nested field uses one of these
 * schema objects, the document says `$ref` to it. Another area adds its records with one line,
 * from its own schema file: `registerComponents({ Team, TeamSummary })`.
 */
type Registry = Map<string, v.GenericSchema>;

const responses: Registry = new Map();
const bodies: Registry = new Map();

/** Records as the server sends them (responses, socket payloads). */
export function registerComponents(records: Record<string, v.GenericSchema>): void {
  for (const [name, schema] of Object.entries(records)) responses.set(name, schema);
}

/** Request bodies, documented as clients send them (before defaults and transforms). */
export function registerBodyComponents(records: Record<string, v.GenericSchema>): void {
  for (const [name, schema] of Object.entries(records)) bodies.set(name, schema);
}

export function responseComponents(): Record<string, v.GenericSchema> {
  return Object.fromEntries(responses);
}

export function bodyComponents(): Record<string, v.GenericSchema> {
  return Object.fromEntries(bodies);
}

registerComponents({
  Error: ErrorBody, Ok: OkBody, UserPublic, UserSelf: identity.UserSelf, UserCard: identity.UserCard,
  ApiKeyRecord: identity.ApiKeyRecord, ApiKeyIssueResponse: identity.ApiKeyIssueResponse, CurrentKey: identity.CurrentKey,
  LobbySlot: lobby.LobbySlot, LobbyDetail: lobby.LobbyDetail, LobbySummary: lobby.LobbySummary, LobbyChatMessage: lobby.LobbyChatMessage,
  LobbyCreated: lobbyBodies.LobbyCreated,
  RconExecResponse: lobbyServer.RconExecResponse, ServerCheck: lobbyServer.ServerCheck, LogStatusResponse: lobbyServer.LogStatusResponse,
  PluginExtendResponse: lobbyServer.PluginExtendResponse, PluginWhoResponse: lobbyServer.PluginWhoResponse,
  ServerReservation: servers.ServerReservation, RegionWithStats: servers.RegionWithStats,
  MapEntry: maps.MapEntry,
  Party: party.Party, PartyInvite: party.PartyInvite, ReceivedInvite: party.ReceivedInvite, PartyCreated: party.PartyCreated,
  PointBalance: points.PointBalance, PointTransaction: points.PointTransaction, PointReward: points.PointReward,
  PointRedemption: points.PointRedemption, PointsLeaderRow: points.PointsLeaderRow,
  PremiumStatus: premium.PremiumStatus, CreateOrderResponse: premium.CreateOrderResponse, PremiumHistoryItem: premium.PremiumHistoryItem,
  GiftCode: premium.GiftCode,
  GlobalStats: pub.GlobalStats, LeaderRow: pub.LeaderRow, MatchPlayer: pub.MatchPlayer, MatchSummary: pub.MatchSummary,
  MatchDetail: pub.MatchDetail, MatchesPage: pub.MatchesPage, ChangelogEntry: pub.ChangelogEntry, Announcement: pub.Announcement,
  BanView: admin.BanView, BanPage: admin.BanPage, AnnouncementView: admin.AnnouncementView, AdminAuditEntry: admin.AdminAuditEntry,
  AuditPage: admin.AuditPage, RatingHistoryEntry: admin.RatingHistoryEntry, EloOverrideResult: admin.EloOverrideResult,
  // The areas of this round (docs/design/CONTRACT.md, "Tag areas"), under the contract's names.
  Team: teams.TeamView, TeamMember: teams.TeamMemberView, TeamSummary: teams.TeamSummary, TeamPage: teams.TeamPage,
  TeamInvite: teams.TeamInviteView, MyTeamInvite: teams.MyTeamInvite, TeamMembershipInterval: teams.MembershipIntervalView,
  Approval: approvals.ApprovalView, ApprovalPage: approvals.ApprovalPage, ApprovalPending: approvals.ApprovalPending,
  Tournament: tournaments.TournamentView, TournamentPage: tournaments.TournamentPage, TournamentEntry: tournaments.TournamentEntryView,
  TournamentEntryTeam: tournaments.TeamSummaryView, EntryFee: tournaments.EntryFee, TournamentMatch: tournaments.TournamentMatchView,
  Bracket: tournaments.BracketView, StandingRow: tournaments.StandingView,
  Category: community.Category, ThreadSummary: community.ThreadSummary, Post: community.Post, ThreadCreated: community.ThreadCreated,
  ThreadPage: community.ThreadPage, ThreadList: community.ThreadList, PostList: community.PostList, PostHistory: community.PostHistory,
  Report: community.Report, ReportCreated: community.ReportCreated, ReportList: community.ReportList,
  ClientLog: clientLogs.ClientLogView, ClientLogPage: clientLogs.ClientLogPage,
  Webhook: notifications.WebhookView, WebhookPage: notifications.WebhookPage, Delivery: notifications.DeliveryView,
  DeliveryPage: notifications.DeliveryPage,
  Cup: cups.CupView, CupPage: cups.CupPage, CupPayout: cups.PayoutView, CupEntryOrder: cups.CupEntryOrder, CupRefund: cups.CupRefundView,
  Prize: tournaments.Prize,
});

registerBodyComponents({
  LobbyCreateBody: lobbyBodies.LobbyCreateBody, VoteMapBody: lobbyBodies.VoteMapBody, PickSlotBody: lobbyBodies.PickSlotBody,
  SetClassBody: lobbyBodies.SetClassBody, ReportBody: lobbyBodies.ReportBody, SetCaptainBody: lobbyBodies.SetCaptainBody,
  ChatBody: lobbyBodies.ChatBody,
  RconExecBody: lobbyServer.RconExecBody, SubmitLogBody: lobbyServer.SubmitLogBody, FetchLogBody: lobbyServer.FetchLogBody,
  PluginExtendBody: lobbyServer.PluginExtendBody, PluginWhoBody: lobbyServer.PluginWhoBody, PluginReportMatchBody: lobbyServer.PluginReportMatchBody,
  PartyCreateBody: party.PartyCreateBody, PartyInviteBody: party.PartyInviteBody, PartyKickBody: party.PartyKickBody,
  ServerCreateBody: servers.ServerCreateBody, ServerScheduleBody: servers.ServerScheduleBody,
  RedeemRewardBody: points.RedeemRewardBody, PointsAdminAwardBody: points.PointsAdminAwardBody,
  SetCustomAvatarBody: identity.SetCustomAvatarBody, SetProfileMakeoverBody: identity.SetProfileMakeoverBody,
  ApiKeyIssueBody: identity.ApiKeyIssueBody, AdminKeyIssueBody: identity.AdminKeyIssueBody,
  PremiumCreateOrderBody: premium.PremiumCreateOrderBody, PayPalCaptureBody: premium.PayPalCaptureBody, RedeemGiftCodeBody: premium.RedeemGiftCodeBody,
  BanCreateBody: admin.BanCreateBody, BanLiftBody: admin.BanLiftBody, EloOverrideBody: admin.EloOverrideBody,
  AnnouncementBody: admin.AnnouncementBody, ChangelogBody: admin.ChangelogBody, ForceEndBody: admin.ForceEndBody,
  TeamCreateBody: teams.TeamCreateBody, TeamPatchBody: teams.TeamPatchBody, TeamInviteBody: teams.TeamInviteBody,
  TeamKickBody: teams.TeamKickBody, TeamRoleBody: teams.TeamRoleBody,
  ApproveBody: approvals.ApproveBody, DenyBody: approvals.DenyBody,
  TournamentCreateBody: tournaments.TournamentCreateBody, TournamentPatchBody: tournaments.TournamentPatchBody,
  TournamentReportBody: tournaments.ReportBody, TournamentDisputeBody: tournaments.DisputeBody, TournamentAdminResultBody: tournaments.AdminResultBody,
  CategoryCreateBody: community.CategoryCreateBody, CategoryPatchBody: community.CategoryPatchBody, PostBody: community.PostBody,
  ThreadCreateBody: community.ThreadCreateBody, ThreadAdminPatchBody: community.ThreadAdminPatchBody,
  CommunityReportBody: community.ReportBody, ReportResolveBody: community.ReportResolveBody,
  ClientLogBody: clientLogs.ClientLogBody,
  WebhookCreateBody: notifications.WebhookCreateBody, WebhookPatchBody: notifications.WebhookPatchBody,
  CupCaptureBody: cups.CupCaptureBody, PayoutPaidBody: cups.PayoutPaidBody,
});
