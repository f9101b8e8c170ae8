import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/spawn-server';

/**
 * Cold start on embedded defaults: spawn to the first 200 of `GET /`, a fresh DATA_DIR each run
 * (the embedded database copied from the install-time template, migrated and demo-seeded, its
 * times moved to now: a newcomer's first start), and the resident memory once the process has
 * idled 5 s and 10 s (V8 gives back start-up's young generation only once its last 5 s of
 * allocation were quiet, see src/startup-memory.ts: the first reading may fall either side of it). The bundled start
 * (dist/server/, what `npm start` runs, scripts/bundle-server.mjs) beside the same compiled modules unbundled (dist/src/)
 * and the tsx loader on the sources (what `npm run dev` runs), median of 3.
 * COLD_START_BASELINE=<another checkout, built> adds its compiled start as the same-run baseline;
 * the starts take turns, so a machine's load drifting hits them alike.
 */
const RUNS = 3;
const IDLE_MS = [5_000, 10_000];

const BASELINE = process.env.COLD_START_BASELINE;
/** What `npm start` runs in a checkout: the bundle, or before there was one the compiled modules. */
const compiledEntry = (root: string) => (existsSync(join(root, 'dist/server/start.js')) ? 'dist/server/start.js' : 'dist/src/start.js');

const starts: Record<string, { args: string[]; cwd?: string }> = {
  'compiled (node dist/server/start.js, what npm start runs)': { args: ['dist/server/start.js'] },
  'compiled, unbundled (node dist/src/start.js)': { args: ['dist/src/start.js'] },
  'tsx (node --import tsx src/start.ts)': { args: ['--import', 'tsx', 'src/start.ts'] },
  ...(BASELINE ? { [`baseline, compiled (node ${compiledEntry(BASELINE)} in ${BASELINE})`]: { args: [compiledEntry(BASELINE)], cwd: BASELINE } } : {}),
};

async function once({ args, cwd }: { args: string[]; cwd?: string }): Promise<{ ms: number; rssMb: number[] }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'league-cold-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.status === 200, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - started;
    const answered = performance.now();
    const rssMb: number[] = [];
    for (const idle of IDLE_MS) {
      await new Promise((r) => setTimeout(r, answered + idle - performance.now()));
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      rssMb.push(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    }
    return { ms, rssMb };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    await rm(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchColdStart(): Promise<string[]> {
  const lines: string[] = [];
  const runsOf = new Map<string, Array<{ ms: number; rssMb: number[] }>>(Object.keys(starts).map((name) => [name, []]));
  for (let i = 0; i < RUNS; i++) for (const [name, start] of Object.entries(starts)) runsOf.get(name)!.push(await once(start));
  for (const [name, runs] of runsOf) {
    const rss = IDLE_MS.map((idle, at) => {
      const mbs = runs.map((r) => r.rssMb[at]);
      return `idle ${idle / 1000} s RSS ${Math.round(median(mbs))} MB median (${mbs.map(Math.round).join(', ')})`;
    });
    lines.push(`  ${name}: first 200 after ${Math.round(median(runs.map((r) => r.ms)))} ms median (${runs.map((r) => Math.round(r.ms)).join(', ')}), ${rss.join(', ')}`);
  }
  return lines;
}
