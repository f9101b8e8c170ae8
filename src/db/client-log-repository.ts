import type { EmSource } from './orm';

/** One entry as stored: what the client sent plus what the server knows about the request. */
export interface ClientLogRow {
  level: string;
  source: string | null;
  message: string;
  context: Record<string, unknown> | null;
  /** When the client says it happened. */
  at: Date;
  receivedAt: Date;
  userId: number | null;
  addressHash: string;
  userAgent: string | null;
}

export interface ClientLogRecord extends ClientLogRow {
  id: number;
}

export interface ClientLogFilter {
  level?: string;
  source?: string;
  /** Received at or after. */
  since?: Date;
  /** Part of the message, ignoring case. */
  q?: string;
  page: number;
  limit: number;
}

const COLUMNS = 'level, source, message, context, at, received_at, user_id, address_hash, user_agent';

/** `%`, `_` and the escape character itself match literally in a LIKE pattern only when escaped. */
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** The client_logs table (migration 0013): appended a request at a time, read by admins, deleted by age. */
export class ClientLogRepository {
  constructor(private readonly db: EmSource) {}

  /**
   * Every row in one INSERT, they are written together or not at all. The rows travel as ONE
   * JSON parameter unpacked by Postgres (jsonb_to_recordset): the ORM inlines parameters into
   * the SQL text, and nine per row made a large group's statement costly to build and to parse.
   */
  async insertMany(rows: readonly ClientLogRow[]): Promise<void> {
    if (rows.length === 0) return;
    const records = rows.map((r) => ({
      level: r.level, source: r.source, message: r.message, context: r.context, at: r.at.toISOString(), received_at: r.receivedAt.toISOString(),
      user_id: r.userId, address_hash: r.addressHash, user_agent: r.userAgent,
    }));
    await this.db.em().execute(
      `insert into client_logs (${COLUMNS})
       select ${COLUMNS} from jsonb_to_recordset(?::jsonb) as r(level varchar, source varchar, message text, context jsonb,
         at timestamptz, received_at timestamptz, user_id int, address_hash varchar, user_agent varchar)`,
      [JSON.stringify(records)],
      'run',
    );
  }

  /** One page, newest first, of the entries that match every filter given. */
  async list(filter: ClientLogFilter): Promise<{ entries: ClientLogRecord[]; total: number }> {
    const conditions: Array<[string, unknown]> = [];
    if (filter.level !== undefined) conditions.push(['level = ?', filter.level]);
    if (filter.source !== undefined) conditions.push(['source = ?', filter.source]);
    if (filter.since !== undefined) conditions.push(['received_at >= ?', filter.since]);
    if (filter.q !== undefined) conditions.push([`message ilike ? escape '\\'`, likePattern(filter.q)]);
    const where = conditions.length > 0 ? `where ${conditions.map(([sql]) => sql).join(' and ')}` : '';
    const params = conditions.map(([, value]) => value);
    const em = this.db.em();
    const [rows, [{ total }]] = await Promise.all([
      em.execute<ClientLogSqlRow[]>(
        `select id::text as id, ${COLUMNS} from client_logs ${where} order by id desc limit ? offset ?`,
        [...params, filter.limit, (filter.page - 1) * filter.limit],
      ),
      em.execute<{ total: number }[]>(`select count(*)::int as total from client_logs ${where}`, params),
    ]);
    return { entries: rows.map(toRecord), total };
  }

  /**
   * Deletes at most `batchSize` entries received before `cutoff`, oldest first; answers how many.
   * One short statement: it locks only the rows it deletes (rows another deleter holds are
   * skipped), so ingestion and reads never wait long on retention.
   */
  async deleteReceivedBefore(cutoff: Date, batchSize: number): Promise<number> {
    const result = await this.db.em().execute<{ affectedRows: number }>(
      `delete from client_logs where id in (
         select id from client_logs where received_at < ? order by received_at limit ? for update skip locked)`,
      [cutoff, batchSize],
      'run',
    );
    return result.affectedRows;
  }
}

interface ClientLogSqlRow {
  id: string;
  level: string;
  source: string | null;
  message: string;
  context: Record<string, unknown> | null;
  at: Date | string;
  received_at: Date | string;
  user_id: number | null;
  address_hash: string;
  user_agent: string | null;
}

function toRecord(row: ClientLogSqlRow): ClientLogRecord {
  return {
    id: Number(row.id),
    level: row.level,
    source: row.source,
    message: row.message,
    context: row.context,
    at: new Date(row.at),
    receivedAt: new Date(row.received_at),
    userId: row.user_id,
    addressHash: row.address_hash,
    userAgent: row.user_agent,
  };
}
