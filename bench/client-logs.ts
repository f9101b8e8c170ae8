import { createTestDatabase } from '../test/support/test-database';
import { startBenchServer } from './bench-server';
import { CONNECTIONS, load, SECONDS, type Load } from './public-reads';
import { databaseLabel } from './realtime-processes';

const batch = (entries: number): string =>
  JSON.stringify({
    entries: Array.from({ length: entries }, (_, i) => ({
      level: i % 4 === 0 ? 'error' : 'info', message: `bench entry ${i}: socket reconnect after a network change`, at: new Date().toISOString(), source: 'web', context: { attempt: i, page: '/lobby/ABC123' },
    })),
  });

/**
 * Client log ingestion against the public summary read of the same server in the same run: POST
 * /api/logs/client with 10 entries a request (one multi-row INSERT each, awaited before the 204)
 * and with 1, so the batching's worth shows; the limits are on (a shared-window hit per request)
 * but set out of reach. One after the other, so they do not share the two cores.
 */
export async function benchClientLogs(): Promise<string[]> {
  const database = process.env.DATABASE_URL ? await createTestDatabase() : null;
  const server = await startBenchServer({ SEED_DEMO_DATA: 'auto', CLIENT_LOG_RATE_LIMIT: '9999999', ...(database ? { DATABASE_URL: database.url } : {}) });
  try {
    const post = (entries: number) => ({ url: `${server.url}/api/logs/client`, method: 'POST', headers: { 'content-type': 'application/json' }, body: batch(entries) });
    const reads = await load({ url: `${server.url}/api/public/summary` }, server.pid);
    const ten = await load(post(10), server.pid);
    const one = await load(post(1), server.pid);
    const line = (r: Load, entries: number) =>
      `${Math.round(r.rps * entries).toLocaleString('en')} entries/s (${Math.round(r.rps).toLocaleString('en')} req/s), p99 ${r.p99} ms, errors ${r.errors}, server CPU ${r.cpuUs.toFixed(1)} us/request`;
    return [
      `client logs, ${CONNECTIONS} connections, ${SECONDS} s each, ${databaseLabel()}, live store ${process.env.REDIS_URL ? 'Redis' : 'in-process'}:`,
      `  public summary (same run): ${Math.round(reads.rps).toLocaleString('en')} req/s, p99 ${reads.p99} ms, errors ${reads.errors}`,
      `  ingest, 10 entries/request: ${line(ten, 10)}`,
      `  ingest, 1 entry/request:    ${line(one, 1)}`,
    ];
  } finally {
    await server.stop();
    await database?.drop();
  }
}
