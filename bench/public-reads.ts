import autocannon from 'autocannon';
import { startBenchServer } from './bench-server';
import { cpuMs } from './http-client';

export const CONNECTIONS = 50;
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

export interface Load {
  rps: number;
  p99: number;
  errors: number;
  /** The server process's CPU time per request (from /proc), which the client's own ceiling does not cap. */
  cpuUs: number;
}

/** One autocannon run (a GET of `url`, or the request `target` describes) after a warm-up, with the server's CPU per request. */
export async function load(target: string | { url: string; method?: string; headers?: Record<string, string>; body?: string }, pid: number): Promise<Load> {
  const request = typeof target === 'string' ? { url: target } : target;
  await autocannon({ ...request, connections: CONNECTIONS, duration: 1 }); // warm-up: caches, JIT
  const before = cpuMs(pid);
  const result = await autocannon({ ...request, connections: CONNECTIONS, duration: SECONDS });
  const cpuUs = ((cpuMs(pid) - before) * 1000) / result.requests.total;
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx, cpuUs };
}

/**
 * GET /api/public/summary from the native uWS route against the same server's express route,
 * same demo data, one after the other so they do not share the two cores.
 */
export async function benchPublicReads(): Promise<string[]> {
  const env = { SEED_DEMO_DATA: 'auto' };
  const raw = await startBenchServer(env);
  const rawResult = await load(`${raw.url}/api/public/summary`, raw.pid).finally(() => raw.stop());
  const viaExpress = await startBenchServer(env, ['--express-public']);
  const expressResult = await load(`${viaExpress.url}/api/public/summary`, viaExpress.pid).finally(() => viaExpress.stop());
  const ratio = rawResult.rps / expressResult.rps;
  const line = (r: Load) => `${Math.round(r.rps).toLocaleString('en')} req/s, p99 ${r.p99} ms, errors ${r.errors}, server CPU ${r.cpuUs.toFixed(1)} us/request`;
  return [
    `public summary, ${CONNECTIONS} connections, ${SECONDS} s each (autocannon, in this process, sharing the two cores):`,
    `  raw uWS route:  ${line(rawResult)}`,
    `  express route:  ${line(expressResult)}`,
    `  ratio: ${ratio.toFixed(1)}x (target >= 5x) ${ratio >= 5 ? 'MET' : 'NOT MET'}; server CPU per request ${(expressResult.cpuUs / rawResult.cpuUs).toFixed(1)}x lower on the raw route`,
  ];
}
