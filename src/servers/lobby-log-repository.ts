import type { LogStatus } from '../domain/servers/match-setup';
import type { EmSource } from '../db/orm';

export interface LobbyLogRecord {
  lobbyCode: string;
  reservationId: number;
  status: LogStatus;
  logUrl: string | null;
  demoUrl: string | null;
  uploadingAt: number | null;
}

const toRecord = (row: Record<string, any>): LobbyLogRecord => ({
  lobbyCode: row.lobby_code,
  reservationId: Number(row.reservation_id),
  status: row.status,
  logUrl: row.log_url ?? null,
  demoUrl: row.demo_url ?? null,
  uploadingAt: row.uploading_at ? new Date(row.uploading_at).getTime() : null,
});

/** The match log of each server-backed lobby, and the audit of RCON commands run through the site. */
export class LobbyLogRepository {
  constructor(private readonly db: EmSource) {}

  /** Creates the lobby's log row (`pending`); true only for the one caller that created it. */
  async openOnce(code: string, reservationId: number, now: number): Promise<boolean> {
    const rows = await this.db.em().execute(
      `insert into lobby_server_logs (lobby_code, reservation_id, status, updated_at) values (?, ?, 'pending', ?)
       on conflict (lobby_code) do nothing returning lobby_code`,
      [code, reservationId, new Date(now)],
    );
    return rows.length > 0;
  }

  async get(code: string): Promise<LobbyLogRecord | null> {
    const rows = await this.db.em().execute('select * from lobby_server_logs where lobby_code = ?', [code]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** pending or failed -> uploading (asking again restarts the window); a ready log stays ready. */
  async markUploading(code: string, reservationId: number, now: number): Promise<LobbyLogRecord> {
    const rows = await this.db.em().execute(
      `insert into lobby_server_logs (lobby_code, reservation_id, status, uploading_at, updated_at) values (?, ?, 'uploading', ?, ?)
       on conflict (lobby_code) do update set status = 'uploading', uploading_at = excluded.uploading_at, updated_at = excluded.updated_at
         where lobby_server_logs.status <> 'ready'
       returning *`,
      [code, reservationId, new Date(now), new Date(now)],
    );
    return rows[0] ? toRecord(rows[0]) : (await this.get(code))!;
  }

  async markReady(code: string, reservationId: number, logUrl: string, demoUrl: string | null, now: number): Promise<void> {
    await this.db.em().execute(
      `insert into lobby_server_logs (lobby_code, reservation_id, status, log_url, demo_url, updated_at) values (?, ?, 'ready', ?, ?, ?)
       on conflict (lobby_code) do update set status = 'ready', log_url = excluded.log_url,
         demo_url = coalesce(excluded.demo_url, lobby_server_logs.demo_url), updated_at = excluded.updated_at`,
      [code, reservationId, logUrl, demoUrl, new Date(now)],
    );
  }

  /** uploading -> failed, only if that upload (same start) is still the one waiting. */
  async failUpload(code: string, uploadingAt: number, now: number): Promise<void> {
    await this.db.em().execute(
      `update lobby_server_logs set status = 'failed', updated_at = ? where lobby_code = ? and status = 'uploading' and uploading_at = ?`,
      [new Date(now), code, new Date(uploadingAt)],
    );
  }

  async audit(entry: { reservationId: number; lobbyCode: string; userId: number; command: string; output: string | null; outcome: string; now: number }): Promise<void> {
    await this.db.em().execute(
      'insert into server_rcon_audit (reservation_id, lobby_code, user_id, command, output, outcome, at) values (?, ?, ?, ?, ?, ?, ?)',
      [entry.reservationId, entry.lobbyCode, entry.userId, entry.command, entry.output, entry.outcome, new Date(entry.now)],
    );
  }

  async audited(reservationId: number): Promise<Array<{ command: string; output: string | null; outcome: string; userId: number }>> {
    const rows = await this.db.em().execute('select * from server_rcon_audit where reservation_id = ? order by id', [reservationId]);
    return rows.map((r) => ({ command: r.command, output: r.output, outcome: r.outcome, userId: Number(r.user_id) }));
  }
}
