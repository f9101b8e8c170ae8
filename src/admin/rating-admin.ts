import type { RatingHistoryEntry } from '../../schema/admin';
import { AdminAuditRepository } from '../db/admin-audit-repository';
import type { Database } from '../db/orm';
import type { UserRecord } from '../db/user-record';
import { notFound } from '../domain/domain-error';

export interface RatingAdminDeps {
  db: Pick<Database, 'em'>;
  /** Drops a public-cache topic on every instance (the leaderboard lives under `matches`). */
  invalidate: (topic: string) => void;
  clock: () => number;
}

const HISTORY_SIZE = 100;

/** An admin's correction of a rating, and the history that shows it beside the matches. */
export class RatingAdmin {
  constructor(private readonly deps: RatingAdminDeps) {}

  async override(actor: UserRecord, userId: number, elo: number, reason: string) {
    const { db, clock } = this.deps;
    const at = new Date(clock());
    const result = await db.em().transactional(async (em) => {
      // Locked: a match report writing this user's rating at the same moment goes before or after, not between.
      const [row] = await em.execute<{ elo: number }[]>('select elo from users where id = ? for update', [userId]);
      if (!row) throw notFound('user not found');
      await em.execute('update users set elo = ? where id = ?', [elo, userId]);
      await em.execute(
        'insert into rating_adjustments (user_id, elo_before, elo_after, reason, admin_id, created_at) values (?, ?, ?, ?, ?, ?)',
        [userId, row.elo, elo, reason, actor.id, at],
      );
      await AdminAuditRepository.insertIn(em, { actorId: actor.id, action: 'user.elo', targetType: 'user', targetId: String(userId), before: { elo: row.elo }, after: { elo }, reason });
      return { user_id: userId, elo_before: row.elo, elo_after: elo };
    });
    this.deps.invalidate('matches');
    return result;
  }

  /** Newest first: every match that moved the rating and every correction, the last 100. */
  async history(userId: number): Promise<RatingHistoryEntry[]> {
    const rows = await this.deps.db.em().execute<
      { kind: 'match' | 'adjustment'; elo_before: number; elo_after: number; match_id: number | null; reason: string | null; at: Date | string }[]
    >(
      `select * from (
         select 'match' as kind, mp.elo_before, mp.elo_after, mp.match_id, null as reason, m.ended_at as at
           from match_players mp join matches m on m.id = mp.match_id where mp.user_id = ?
         union all
         select 'adjustment', elo_before, elo_after, null, reason, created_at from rating_adjustments where user_id = ?
       ) history order by at desc limit ?`,
      [userId, userId, HISTORY_SIZE],
    );
    return rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() }));
  }
}
