/*
 * The write-behind's statement (src/engine/lobby-documents.ts `flush`): eight busy gathering
 * lobbies' records per statement, each with its notification events, as LobbyRecordRepository
 * writes them, against the statement it replaced (round 35) as the same-run baseline: the ORM's
 * `execute`, every value formatted into the text (the snapshots hex-encoded), the events sent
 * with every record. Prints per statement the wall time, this process's CPU and Postgres's own
 * CPU (its processes on this machine, from /proc): Postgres shares the cores with the server.
 */
import { execSync } from 'node:child_process';
import { LobbyRecordRepository, type LobbyDocument } from '../src/db/lobby-record-repository';
import { questionMarks } from '../src/db/bound-statement';
import { outboxCtes, type ScopedEvent } from '../src/db/notification-outbox';
import type { EntityManager } from '../src/db/orm';
import { lobbyEvents } from '../src/domain/notifications/notification-event';
import type { LobbyState } from '../src/domain/lobby';
import { gatheringLobby } from '../test/unit/lobby/lobby-fixtures';
import { createTestDatabase } from '../test/support/test-database';

const STATEMENTS = Number(process.env.BENCH_STATEMENTS ?? 600);
const LOBBIES = 8;

const noticesOf = (docs: LobbyDocument[]): ScopedEvent[] => docs.flatMap((doc) => lobbyEvents(doc.snapshot as LobbyState).map((event) => ({ ...event, scope: doc.code })));

/** The statement before round 35, as the baseline. */
async function formattedSave(em: EntityManager, docs: LobbyDocument[]): Promise<void> {
  const row = "(?, ?, ?, convert_from(?::bytea, 'UTF8')::jsonb, ?, coalesce(?::timestamptz, now()), coalesce(?::timestamptz, now()))";
  const upsert = `insert into lobby_records (code, phase, host_id, snapshot, version, created_at, updated_at) values ${docs.map(() => row).join(', ')}
    on conflict (code) do update set phase = excluded.phase, host_id = excluded.host_id, snapshot = excluded.snapshot, version = excluded.version, updated_at = excluded.updated_at
    where lobby_records.version < excluded.version returning code`;
  const params = docs.flatMap((doc) => [doc.code, doc.phase, doc.hostId, Buffer.from(JSON.stringify(doc.snapshot)), doc.version, null, null]);
  const { place, params: outboxParams } = questionMarks();
  const outbox = outboxCtes(noticesOf(docs), place, 'stored');
  await em.execute(`with stored as (${upsert}), ${outbox} select code from stored`, [...params, ...outboxParams]);
}

/** CPU ms of every Postgres process on this machine (null: none here). */
function postgresCpuMs(): number | null {
  try {
    const ticks = execSync(`for p in $(pgrep -x postgres); do awk '{print $14+$15}' /proc/$p/stat 2>/dev/null; done`).toString().trim();
    return ticks === '' ? null : ticks.split('\n').reduce((sum, n) => sum + Number(n), 0) * 10;
  } catch {
    return null;
  }
}

export async function benchLobbyRecordWrites(): Promise<string[]> {
  if (!process.env.DATABASE_URL) return ['lobby record writes: skipped (needs DATABASE_URL)'];
  const database = await createTestDatabase();
  try {
    const states = Array.from({ length: LOBBIES }, (_, i) => ({ ...gatheringLobby(), code: `WB${i}AA` }));
    let version = 0;
    const nextDocs = () => {
      version++;
      return states.map((state) => ({ code: state.code, phase: state.phase, hostId: state.hostId, version, snapshot: { ...state, version } }));
    };
    const repository = new LobbyRecordRepository(database.db, noticesOf);
    const ways: Array<[string, (docs: LobbyDocument[]) => Promise<unknown>]> = [
      ['LobbyRecordRepository.saveMany (values bound, events known written not sent again)', (docs) => repository.saveMany(docs)],
      ['baseline: the ORM execute, values formatted in, events with every record (the statement before round 35)', (docs) => formattedSave(database.db.em(), docs)],
    ];
    const lines = [`lobby record writes: ${STATEMENTS} statements of ${LOBBIES} gathering lobbies (${JSON.stringify(states[0]).length}-byte snapshots) each, as the write-behind flush writes them; the two ways in turn, twice`];
    for (const round of [1, 2]) {
      for (const [label, write] of ways) {
        for (let i = 0; i < 50; i++) await write(nextDocs());
        const pgBefore = postgresCpuMs();
        const cpu = process.cpuUsage();
        const started = performance.now();
        for (let i = 0; i < STATEMENTS; i++) await write(nextDocs());
        const wall = performance.now() - started;
        const used = process.cpuUsage(cpu);
        const pgAfter = postgresCpuMs();
        const postgres = pgBefore === null || pgAfter === null ? 'Postgres CPU: not on this machine' : `Postgres CPU ${((pgAfter - pgBefore) / STATEMENTS).toFixed(2)} ms`;
        lines.push(`  round ${round}, ${label}: per statement ${(wall / STATEMENTS).toFixed(2)} ms wall, this process's CPU ${((used.user + used.system) / 1000 / STATEMENTS).toFixed(2)} ms, ${postgres}`);
      }
    }
    return lines;
  } finally {
    await database.drop();
  }
}
