import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict } from '../domain/domain-error';
import type { InviteView } from '../domain/teams';
import type { EmSource, EntityManager } from './orm';

export interface TeamInviteRecord extends InviteView {
  id: number;
  teamId: number;
  fromUserId: number;
  createdAt: Date;
}

const COLUMNS = 'id, team_id, user_id, from_user_id, status, created_at';

/** Team invitations (migration 0009); one pending per team and user, by a partial unique index. */
export class TeamInviteRepository {
  constructor(private readonly db: EmSource) {}

  static async insertIn(em: EntityManager, teamId: number, userId: number, fromUserId: number, now: Date): Promise<TeamInviteRecord> {
    try {
      const [row] = await em.execute<InviteRow[]>(
        `insert into team_invites (team_id, user_id, from_user_id, created_at) values (?, ?, ?, ?) returning ${COLUMNS}`,
        [teamId, userId, fromUserId, now],
      );
      return toRecord(row);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict('that user is already invited to the team');
      throw error;
    }
  }

  /** Locked until the transaction ends; take the team's lock first (the order disbanding takes them in). */
  static async lockIn(em: EntityManager, inviteId: number): Promise<TeamInviteRecord | null> {
    const [row] = await em.execute<InviteRow[]>(`select ${COLUMNS} from team_invites where id = ? for update`, [inviteId]);
    return row ? toRecord(row) : null;
  }

  static async answerIn(em: EntityManager, inviteId: number, status: 'accepted' | 'declined' | 'cancelled', now: Date): Promise<void> {
    await em.execute(`update team_invites set status = ?, decided_at = ? where id = ? and status = 'pending'`, [status, now, inviteId]);
  }

  /** Closes whatever invite of this user to this team is still pending (they joined another way). */
  static async closePendingIn(em: EntityManager, teamId: number, userId: number, now: Date): Promise<void> {
    await em.execute(`update team_invites set status = 'accepted', decided_at = ? where team_id = ? and user_id = ? and status = 'pending'`, [now, teamId, userId]);
  }

  async get(inviteId: number): Promise<TeamInviteRecord | null> {
    const [row] = await this.db.em().execute<InviteRow[]>(`select ${COLUMNS} from team_invites where id = ?`, [inviteId]);
    return row ? toRecord(row) : null;
  }

  /** The user's pending invites, newest first. */
  async pendingFor(userId: number): Promise<TeamInviteRecord[]> {
    const rows = await this.db.em().execute<InviteRow[]>(`select ${COLUMNS} from team_invites where user_id = ? and status = 'pending' order by id desc`, [userId]);
    return rows.map(toRecord);
  }
}

interface InviteRow {
  id: number;
  team_id: number;
  user_id: number;
  from_user_id: number;
  status: InviteView['status'];
  created_at: Date | string;
}

const toRecord = (r: InviteRow): TeamInviteRecord => ({
  id: r.id,
  teamId: r.team_id,
  userId: r.user_id,
  fromUserId: r.from_user_id,
  status: r.status,
  createdAt: new Date(r.created_at),
});
