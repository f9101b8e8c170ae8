import { hasRoom } from '../domain/servers/region-capacity';
import { HOLDING_STATUSES, type ReservationStatus } from '../domain/servers/reservation-status';
import type { EmSource, EntityManager } from '../db/orm';
import { toReservationRecord, type ReservationRecord } from './reservation-record';

/** What a booking writes: the record's own fields, a first status, and the moment of booking. */
export type NewReservation = Pick<
  ReservationRecord,
  'ownerId' | 'tier' | 'region' | 'map' | 'configPreset' | 'rconPassword' | 'serverPassword' | 'startsAt' | 'endsAt'
> & { status: 'pending' | 'provisioning'; now: number };

/** Fields a lifecycle step may set together with a status change (or alone). */
export interface ReservationPatch {
  connectAddress?: string | null;
  rconAddress?: string | null;
  providerRef?: string | null;
  provisionAttempts?: number;
  provisioningSince?: number | null;
  lastPlayersAt?: number | null;
  warnedAt?: number | null;
  endsAt?: number;
  endedAt?: number | null;
  lobbyCode?: string | null;
}

const COLUMN: Record<keyof ReservationPatch, string> = {
  connectAddress: 'connect_address',
  rconAddress: 'rcon_address',
  providerRef: 'provider_ref',
  provisionAttempts: 'provision_attempts',
  provisioningSince: 'provisioning_since',
  lastPlayersAt: 'last_players_at',
  warnedAt: 'warned_at',
  endsAt: 'ends_at',
  endedAt: 'ended_at',
  lobbyCode: 'lobby_code',
};
const TIME_FIELDS = new Set<keyof ReservationPatch>(['provisioningSince', 'lastPlayersAt', 'warnedAt', 'endsAt', 'endedAt']);

/** An arbitrary constant naming the region locks among Postgres advisory locks. */
const REGION_LOCK = 7_302_118;
const holding = HOLDING_STATUSES.map((s) => `'${s}'`).join(', ');

export type CreateRefusal = 'region_full' | 'free_taken';

export class ReservationRepository {
  constructor(private readonly db: EmSource) {}

  /**
   * Books a region slot. Two locks make the check and the insert one step across every instance:
   * the owner's row (one free reservation at a time) and an advisory lock per region (capacity).
   * `isFreeTaken` sees the owner's reservations read under the lock.
   */
  async create(input: NewReservation, capacity: number): Promise<{ ok: true; record: ReservationRecord } | { ok: false; refusal: CreateRefusal }> {
    return this.db.em().transactional(async (em) => {
      await em.execute('select id from users where id = ? for update', [input.ownerId]);
      if (input.tier === 'free') {
        const [{ n }] = await em.execute<{ n: number }[]>(
          `select count(*)::int as n from server_reservations where owner_id = ? and tier = 'free' and status in (${holding})`,
          [input.ownerId],
        );
        if (n > 0) return { ok: false, refusal: 'free_taken' as const };
      }
      await em.execute('select pg_advisory_xact_lock(?, hashtext(?))', [REGION_LOCK, input.region]);
      const bookings = await this.bookings(em, input.region, input.startsAt, input.endsAt);
      if (!hasRoom(bookings, input, capacity)) return { ok: false, refusal: 'region_full' as const };
      const [row] = await em.execute(
        `insert into server_reservations
          (owner_id, tier, status, region, map, config_preset, rcon_password, server_password, starts_at, ends_at, created_at, provisioning_since)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning *`,
        [
          input.ownerId, input.tier, input.status, input.region, input.map, input.configPreset, input.rconPassword,
          input.serverPassword, new Date(input.startsAt), new Date(input.endsAt), new Date(input.now),
          input.status === 'provisioning' ? new Date(input.now) : null,
        ],
      );
      await logStatus(em, Number(row.id), input.status, input.status === 'pending' ? 'scheduled' : 'created', input.now);
      return { ok: true, record: toReservationRecord(row) };
    });
  }

  /** Moves the end of a running reservation if the region still has room for the longer window. */
  async extend(id: number, endsAt: number, capacity: number): Promise<ReservationRecord | 'region_full' | null> {
    return this.db.em().transactional(async (em) => {
      const [current] = await em.execute(`select * from server_reservations where id = ? for update`, [id]);
      if (!current) return null;
      const record = toReservationRecord(current);
      if (record.status !== 'active') return null;
      await em.execute('select pg_advisory_xact_lock(?, hashtext(?))', [REGION_LOCK, record.region]);
      const others = (await this.bookings(em, record.region, record.endsAt, endsAt)).filter((b) => b.id !== id);
      if (!hasRoom(others, { startsAt: record.endsAt, endsAt }, capacity)) return 'region_full' as const;
      const [row] = await em.execute('update server_reservations set ends_at = ?, warned_at = null where id = ? returning *', [new Date(endsAt), id]);
      return toReservationRecord(row);
    });
  }

  /**
   * Compare-and-set on the status: moves `id` from one of `from` to `to` (logging the change) and
   * applies the patch, or changes nothing and answers null when another step got there first.
   */
  async transition(id: number, from: readonly ReservationStatus[], to: ReservationStatus, reason: string, now: number, patch: ReservationPatch = {}): Promise<ReservationRecord | null> {
    return this.db.em().transactional(async (em) => {
      const { sets, values } = patchSql(patch);
      const rows = await em.execute(
        `update server_reservations set status = ?${sets} where id = ? and status in (${from.map(() => '?').join(', ')}) returning *`,
        [to, ...values, id, ...from],
      );
      if (rows.length === 0) return null;
      await logStatus(em, id, to, reason, now);
      return toReservationRecord(rows[0]);
    });
  }

  /** Sets fields without a status change, only while the status is still `status`. */
  async patch(id: number, status: ReservationStatus, patch: ReservationPatch): Promise<ReservationRecord | null> {
    const { sets, values } = patchSql(patch);
    if (!sets) return this.byId(id);
    const rows = await this.db.em().execute(`update server_reservations set ${sets.slice(2)} where id = ? and status = ? returning *`, [...values, id, status]);
    return rows[0] ? toReservationRecord(rows[0]) : null;
  }

  /** Records the host's server for a provisioning reservation that has none yet; false if it has one or moved on. */
  async claimProviderRef(id: number, ref: string): Promise<boolean> {
    const rows = await this.db.em().execute(
      `update server_reservations set provider_ref = ? where id = ? and status = 'provisioning' and provider_ref is null returning id`,
      [ref, id],
    );
    return rows.length > 0;
  }

  async setLobby(id: number, code: string): Promise<void> {
    await this.db.em().execute('update server_reservations set lobby_code = ? where id = ?', [code, id]);
  }

  /** Unpins the lobby if the reservation still serves it (a later lobby's pin is left alone); true when it did. */
  async releaseLobby(id: number, code: string): Promise<boolean> {
    const rows = await this.db.em().execute('update server_reservations set lobby_code = null where id = ? and lobby_code = ? returning id', [id, code]);
    return rows.length > 0;
  }

  async byId(id: number): Promise<ReservationRecord | null> {
    const rows = await this.db.em().execute('select * from server_reservations where id = ?', [id]);
    return rows[0] ? toReservationRecord(rows[0]) : null;
  }

  async byOwner(ownerId: number, statuses?: readonly ReservationStatus[], limit = 50): Promise<ReservationRecord[]> {
    const filter = statuses ? ` and status in (${statuses.map(() => '?').join(', ')})` : '';
    const rows = await this.db.em().execute(
      `select * from server_reservations where owner_id = ?${filter} order by created_at desc, id desc limit ?`,
      [ownerId, ...(statuses ?? []), limit],
    );
    return rows.map(toReservationRecord);
  }

  /** Reservations holding a slot at `at`, per region. */
  async occupiedAt(at: number): Promise<Map<string, number>> {
    const rows = await this.db.em().execute<{ region: string; n: number }[]>(
      `select region, count(*)::int as n from server_reservations where status in (${holding}) and starts_at <= ? and ends_at > ? group by region`,
      [new Date(at), new Date(at)],
    );
    return new Map(rows.map((r) => [r.region, r.n]));
  }

  async statusLog(id: number): Promise<Array<{ status: ReservationStatus; reason: string | null; at: number }>> {
    const rows = await this.db.em().execute('select status, reason, at from server_status_log where reservation_id = ? order by id', [id]);
    return rows.map((r) => ({ status: r.status, reason: r.reason, at: new Date(r.at).getTime() }));
  }

  /** Unfinished reservations, for re-queueing their lifecycle after a restart. */
  async unfinished(): Promise<ReservationRecord[]> {
    const rows = await this.db.em().execute(`select * from server_reservations where status in (${holding})`);
    return rows.map(toReservationRecord);
  }

  private async bookings(em: EntityManager, region: string, from: number, to: number) {
    const rows = await em.execute(
      `select id, starts_at, ends_at from server_reservations where region = ? and status in (${holding}) and starts_at < ? and ends_at > ?`,
      [region, new Date(to), new Date(from)],
    );
    return rows.map((r) => ({ id: Number(r.id), startsAt: new Date(r.starts_at).getTime(), endsAt: new Date(r.ends_at).getTime() }));
  }
}

async function logStatus(em: EntityManager, id: number, status: ReservationStatus, reason: string, now: number): Promise<void> {
  await em.execute('insert into server_status_log (reservation_id, status, reason, at) values (?, ?, ?, ?)', [id, status, reason, new Date(now)]);
}

function patchSql(patch: ReservationPatch): { sets: string; values: unknown[] } {
  const keys = (Object.keys(patch) as Array<keyof ReservationPatch>).filter((k) => patch[k] !== undefined);
  const values = keys.map((k) => {
    const value = patch[k];
    return TIME_FIELDS.has(k) && typeof value === 'number' ? new Date(value) : value;
  });
  return { sets: keys.map((k) => `, ${COLUMN[k]} = ?`).join(''), values };
}
