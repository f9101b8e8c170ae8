import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { UserPublic } from '../../schema/user';
import { conflict } from '../domain/domain-error';
import type { TeamEvent, TeamProfile, TeamRole, TeamState } from '../domain/teams';
import type { EmSource, EntityManager } from './orm';

export interface TeamMemberRecord {
  user: UserPublic;
  role: TeamRole;
  joinedAt: Date;
}

export interface TeamRecord {
  id: number;
  name: string;
  tag: string;
  description: string;
  leaderId: number;
  members: TeamMemberRecord[];
  createdAt: Date;
  disbandedAt: Date | null;
  version: number;
}

export interface TeamSummaryRecord {
  id: number;
  name: string;
  tag: string;
  leaderId: number;
  memberCount: number;
}

export interface MembershipInterval {
  userId: number;
  username: string;
  role: TeamRole;
  joinedAt: Date;
  leftAt: Date | null;
  leftReason: 'left' | 'kicked' | 'disbanded' | null;
}

const ROLE_ORDER = `case m.role when 'leader' then 0 when 'captain' then 1 else 2 end`;
const USER_PUBLIC = `u.id as user_id, u.platform_id, u.username, coalesce(u.custom_avatar_url, u.avatar_url) as avatar_url, u.elo, u.name_color, u.profile_frame`;

/**
 * Teams in Postgres (migration 0009). Every change runs inside a transaction that first locks the
 * team's row (`lockIn`), so changes of one team take turns on every instance; the `...In` writers
 * turn a rule's events into rows.
 */
export class TeamRepository {
  constructor(private readonly db: EmSource) {}

  /** The team as its rules see it, its row locked until the transaction ends; null when there is none. */
  static async lockIn(em: EntityManager, teamId: number): Promise<TeamState | null> {
    const [team] = await em.execute<TeamRow[]>(
      `select id, name, tag, description, leader_id, version, disbanded_at from teams where id = ? for update`,
      [teamId],
    );
    if (!team) return null;
    const members = await em.execute<{ user_id: number; role: TeamRole; joined_at: Date | string }[]>(
      `select m.user_id, m.role, m.joined_at from team_memberships m where m.team_id = ? and m.left_at is null order by ${ROLE_ORDER}, m.joined_at, m.id`,
      [teamId],
    );
    return {
      id: team.id,
      name: team.name,
      tag: team.tag,
      description: team.description,
      leaderId: team.leader_id,
      members: members.map((m) => ({ userId: m.user_id, role: m.role, joinedAt: new Date(m.joined_at).getTime() })),
      disbanded: team.disbanded_at !== null,
      version: team.version,
    };
  }

  /** Inserts a team and its leader's membership; a live team with the name or tag (ignoring case): 409. */
  static async createIn(em: EntityManager, profile: TeamProfile, leaderId: number, now: Date): Promise<number> {
    const [row] = await uniqueNames(() =>
      em.execute<{ id: number }[]>(
        `insert into teams (name, tag, description, leader_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?) returning id`,
        [profile.name, profile.tag, profile.description, leaderId, now, now],
      ),
    );
    await em.execute(`insert into team_memberships (team_id, user_id, role, joined_at) values (?, ?, 'leader', ?)`, [row.id, leaderId, now]);
    return row.id;
  }

  /** Writes what a rule decided: `after` is the rule's new state, `events` what changed. */
  static async applyIn(em: EntityManager, after: TeamState, events: readonly TeamEvent[], now: Date): Promise<void> {
    for (const event of events) {
      switch (event.type) {
        case 'created':
          break;
        case 'profile_changed':
          await uniqueNames(() =>
            em.execute(`update teams set name = ?, tag = ?, description = ? where id = ?`, [event.name, event.tag, event.description, after.id]),
          );
          break;
        case 'member_joined':
          await em.execute(`insert into team_memberships (team_id, user_id, role, joined_at) values (?, ?, ?, ?)`, [after.id, event.userId, event.role, now]);
          break;
        case 'member_left':
          await em.execute(`update team_memberships set left_at = ?, left_reason = ? where team_id = ? and user_id = ? and left_at is null`, [
            now,
            event.reason,
            after.id,
            event.userId,
          ]);
          break;
        case 'role_changed':
          await em.execute(`update team_memberships set role = ? where team_id = ? and user_id = ? and left_at is null`, [event.role, after.id, event.userId]);
          break;
        case 'disbanded':
          await em.execute(`update team_memberships set left_at = ?, left_reason = 'disbanded' where team_id = ? and left_at is null`, [now, after.id]);
          await em.execute(`update team_invites set status = 'cancelled', decided_at = ? where team_id = ? and status = 'pending'`, [now, after.id]);
          break;
      }
    }
    await em.execute(`update teams set leader_id = ?, version = ?, updated_at = ?, disbanded_at = ? where id = ?`, [
      after.leaderId,
      after.version,
      now,
      after.disbanded ? now : null,
      after.id,
    ]);
  }

  /** The ids of the live teams a user is on now. */
  static async teamIdsOfIn(em: EntityManager, userId: number): Promise<number[]> {
    const rows = await em.execute<{ team_id: number }[]>(`select team_id from team_memberships where user_id = ? and left_at is null`, [userId]);
    return rows.map((r) => r.team_id);
  }

  /** A team with its current roster (a disbanded one too: its page stays readable); null when there is none. */
  async get(teamId: number, em: EntityManager = this.db.em()): Promise<TeamRecord | null> {
    const [team] = await em.execute<(TeamRow & { created_at: Date | string })[]>(
      `select id, name, tag, description, leader_id, version, created_at, disbanded_at from teams where id = ?`,
      [teamId],
    );
    if (!team) return null;
    const members = await em.execute<(UserRow & { role: TeamRole; joined_at: Date | string })[]>(
      `select ${USER_PUBLIC}, m.role, m.joined_at from team_memberships m join users u on u.id = m.user_id
       where m.team_id = ? and m.left_at is null order by ${ROLE_ORDER}, m.joined_at, m.id`,
      [teamId],
    );
    return {
      id: team.id,
      name: team.name,
      tag: team.tag,
      description: team.description,
      leaderId: team.leader_id,
      members: members.map((m) => ({ user: userPublic(m), role: m.role, joinedAt: new Date(m.joined_at) })),
      createdAt: new Date(team.created_at),
      disbandedAt: team.disbanded_at === null ? null : new Date(team.disbanded_at),
      version: team.version,
    };
  }

  /** Live teams whose name or tag contains `q` (ignoring case), by name; one page. */
  async search(q: string | undefined, page: number, limit: number): Promise<{ teams: TeamSummaryRecord[]; total: number }> {
    const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const where = `where t.disbanded_at is null${pattern ? ` and (t.name ilike ? or t.tag ilike ?)` : ''}`;
    const params = pattern ? [pattern, pattern] : [];
    const em = this.db.em();
    const [rows, [{ total }]] = await Promise.all([
      em.execute<SummaryRow[]>(
        `select t.id, t.name, t.tag, t.leader_id,
           (select count(*)::int from team_memberships m where m.team_id = t.id and m.left_at is null) as member_count
         from teams t ${where} order by lower(t.name), t.id limit ? offset ?`,
        [...params, limit, (page - 1) * limit],
      ),
      em.execute<{ total: number }[]>(`select count(*)::int as total from teams t ${where}`, params),
    ]);
    return { teams: rows.map(toSummary), total };
  }

  async summaries(teamIds: readonly number[], em: EntityManager = this.db.em()): Promise<Map<number, TeamSummaryRecord>> {
    if (teamIds.length === 0) return new Map();
    const rows = await em.execute<SummaryRow[]>(
      `select t.id, t.name, t.tag, t.leader_id,
         (select count(*)::int from team_memberships m where m.team_id = t.id and m.left_at is null) as member_count
       from teams t where t.id = any(?)`,
      [[...teamIds]],
    );
    return new Map(rows.map((r) => [r.id, toSummary(r)]));
  }

  /** Every membership interval of a team, oldest first; open ones have no `leftAt`. */
  async history(teamId: number): Promise<MembershipInterval[] | null> {
    const em = this.db.em();
    const [team] = await em.execute<{ id: number }[]>(`select id from teams where id = ?`, [teamId]);
    if (!team) return null;
    const rows = await em.execute<{ user_id: number; username: string; role: TeamRole; joined_at: Date | string; left_at: Date | string | null; left_reason: MembershipInterval['leftReason'] }[]>(
      `select m.user_id, u.username, m.role, m.joined_at, m.left_at, m.left_reason from team_memberships m join users u on u.id = m.user_id
       where m.team_id = ? order by m.joined_at, m.id`,
      [teamId],
    );
    return rows.map((r) => ({
      userId: r.user_id,
      username: r.username,
      role: r.role,
      joinedAt: new Date(r.joined_at),
      leftAt: r.left_at === null ? null : new Date(r.left_at),
      leftReason: r.left_reason,
    }));
  }
}

interface TeamRow {
  id: number;
  name: string;
  tag: string;
  description: string;
  leader_id: number;
  version: number;
  disbanded_at: Date | string | null;
}

interface SummaryRow {
  id: number;
  name: string;
  tag: string;
  leader_id: number;
  member_count: number;
}

export interface UserRow {
  user_id: number;
  platform_id: string;
  username: string;
  avatar_url: string | null;
  elo: number;
  name_color: string | null;
  profile_frame: string | null;
}

const toSummary = (r: SummaryRow): TeamSummaryRecord => ({ id: r.id, name: r.name, tag: r.tag, leaderId: r.leader_id, memberCount: r.member_count });

const userPublic = (r: UserRow): UserPublic => ({
  id: r.user_id,
  platform_id: r.platform_id,
  username: r.username,
  avatar_url: r.avatar_url,
  elo: r.elo,
  name_color: r.name_color,
  profile_frame: r.profile_frame,
});

/** The two unique indexes on lowered names and tags, turned into the 409 each one means. */
async function uniqueNames<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw conflict(String(error.message).includes('teams_tag_lower_unique') ? 'a team with that tag exists' : 'a team with that name exists');
    }
    throw error;
  }
}

/** Whether an account exists, and whether it is an admin's (null: no such user). */
export async function accountIn(em: EntityManager, userId: number): Promise<{ isAdmin: boolean } | null> {
  const [row] = await em.execute<{ is_admin: boolean }[]>(`select is_admin from users where id = ?`, [userId]);
  return row ? { isAdmin: row.is_admin } : null;
}
