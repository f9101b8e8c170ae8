import autocannon from 'autocannon';
import { startBenchServer } from './bench-server';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

async function load(url: string): Promise<{ rps: number; p99: number; errors: number }> {
  await autocannon({ url, connections: CONNECTIONS, duration: 1 }); // warm-up: caches, JIT
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/**
 * GET /api/public/summary from the native uWS route against the same server's express route,
 * same demo data, one after the other so they do not share the two cores.
 */
export async function benchPublicReads(): Promise<string[]> {
  const env = { SEED_DEMO_DATA: 'auto' };
  const raw = await startBenchServer(env);
  const rawResult = await load(`${raw.url}/api/public/summary`).finally(() => raw.stop());
  const viaExpress = await startBenchServer(env, ['--express-public']);
  const expressResult = await load(`${viaExpress.url}/api/public/summary`).finally(() => viaExpress.stop());
  const ratio = rawResult.rps / expressResult.rps;
  return [
    `public summary, ${CONNECTIONS} connections, ${SECONDS} s each (autocannon):`,
    `  raw uWS route:  ${Math.round(rawResult.rps).toLocaleString('en')} req/s, p99 ${rawResult.p99} ms, errors ${rawResult.errors}`,
    `  express route:  ${Math.round(expressResult.rps).toLocaleString('en')} req/s, p99 ${expressResult.p99} ms, errors ${expressResult.errors}`,
    `  ratio: ${ratio.toFixed(1)}x (target >= 5x) ${ratio >= 5 ? 'MET' : 'NOT MET'}`,
  ];
}
