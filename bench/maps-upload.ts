import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { startFakeSteamOpenId } from '../test/fakes/fake-steam-openid';
import { streamUpload } from '../test/api/maps/multipart-stream';
import { loginAs } from '../test/support/login';
import { createTestDatabase } from '../test/support/test-database';
import { startBenchServer } from './bench-server';

/*
 * A 90 MiB map uploaded through the door users use (multipart over HTTP with a session cookie,
 * to the server in its own process: streamed, hashed, checked, written, recorded), beside the
 * same bytes sent to a bare native uWS route that discards them. Throughput is file MiB per
 * second from the first byte sent to the answer; memory is the server process's resident set
 * from /proc (VmRSS before, VmHWM peak after).
 */
const MiB = 1024 * 1024;
const FILE_BYTES = 90 * MiB;
const RUNS = Math.max(1, Math.min(5, Number(process.env.BENCH_RUNS ?? 3)));
const ADMIN = '76561198000009001';

async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const mib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]) / 1024;
  return { rss: mib('VmRSS'), peak: mib('VmHWM') };
}

interface Figures {
  mibPerS: number[];
  rssBefore: number;
  peak: number;
}

async function measure(url: string, pid: number, headers: Record<string, string>, name: (run: number) => string): Promise<Figures> {
  const before = await memory(pid);
  const mibPerS: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const upload = streamUpload(url, headers, { fileName: `${name(run)}.bsp`, fileBytes: FILE_BYTES, chunked: false, revision: run + 1 });
    const response = await upload.response;
    if (response.statusCode !== 201) throw new Error(`upload answered ${response.statusCode}: ${response.body}`);
    mibPerS.push(FILE_BYTES / MiB / ((performance.now() - started) / 1000));
  }
  return { mibPerS, rssBefore: before.rss, peak: (await memory(pid)).peak };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const line = (label: string, f: Figures) =>
  `  ${label.padEnd(34)} ${median(f.mibPerS).toFixed(0).padStart(5)} MiB/s (runs: ${f.mibPerS.map((x) => x.toFixed(0)).join(', ')})  RSS ${f.rssBefore.toFixed(0)} MiB before, peak ${f.peak.toFixed(0)} MiB`;

export async function benchMapsUpload(): Promise<string[]> {
  const provider = await startFakeSteamOpenId();
  const database = await createTestDatabase();
  const server = await startBenchServer({
    DATABASE_URL: database.url,
    STEAM_OPENID_URL: provider.url,
    ADMIN_PLATFORM_IDS: ADMIN,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    SEED_DEMO_DATA: 'never',
  });
  const bare = await startBenchServer({}, [], 'bench/maps-upload-bare-server.ts');
  try {
    const { cookie } = await loginAs(server, provider, ADMIN);
    const baseline = await measure(bare.url, bare.pid, {}, (run) => `bare_${run}`);
    const real = await measure(server.url, server.pid, { cookie }, (run) => `bench_upload_${run}`);
    return [
      `  ${RUNS} uploads of a ${FILE_BYTES / MiB} MiB map each, multipart over HTTP on 127.0.0.1, one at a time`,
      line('POST /api/maps/upload (server)', real),
      line('baseline: bare uWS route, discards', baseline),
      `  server's growth over its idle RSS: ${(real.peak - real.rssBefore).toFixed(0)} MiB (the body is never held whole)`,
    ];
  } finally {
    await bare.stop();
    await server.stop();
    await database.drop();
    await provider.close();
  }
}
