import { AdminAuditRepository } from '../db/admin-audit-repository';
import type { EmSource, EntityManager } from '../db/orm';
import { toUserRecord, type UserRecord } from '../db/user-record';
import { conflict, notFound } from '../domain/domain-error';

const PLATFORM_ID = /^\d{17}$/;

/**
 * What the operator does from the command line (`npm run admin`), without a browser or an admin
 * account: make an account admin, find the account a key is for. Every change writes an admin
 * audit row with no actor and the operator's name as the reason.
 */
export class OperatorAdmin {
  constructor(private readonly db: EmSource) {}

  /**
   * A 17-digit platform id names the account (created if it never logged in, so the first admin
   * can exist before their first login); anything else is a username, which must name one account.
   */
  async account(ref: string, em: EntityManager = this.db.em()): Promise<UserRecord> {
    if (PLATFORM_ID.test(ref)) {
      const rows = await em.execute(
        `insert into users (platform_id, username) values (?, ?)
         on conflict (platform_id) do update set platform_id = excluded.platform_id returning *`,
        [ref, `Player ${ref.slice(-5)}`],
      );
      return toUserRecord(rows[0]);
    }
    const rows = await em.execute('select * from users where lower(username) = lower(?) order by id limit 2', [ref]);
    if (rows.length === 0) throw notFound('no account has that name');
    if (rows.length > 1) throw conflict('several accounts have that name: use the platform id');
    return toUserRecord(rows[0]);
  }

  async makeAdmin(ref: string, operator: string): Promise<UserRecord> {
    return this.db.em().transactional(async (em) => {
      const user = await this.account(ref, em);
      if (user.isAdmin) return user;
      const rows = await em.execute('update users set is_admin = true where id = ? returning *', [user.id]);
      await AdminAuditRepository.insertIn(em, {
        actorId: null, action: 'user.make_admin', targetType: 'user', targetId: String(user.id),
        before: { is_admin: false }, after: { is_admin: true }, reason: `operator CLI (${operator})`,
      });
      return toUserRecord(rows[0]);
    });
  }
}
