/**
 * The server as a benchmark target, in its own process: `tsx bench/serve.ts [--express-public]`,
 * running the compiled build in dist/ (what `npm start` runs) unless BENCH_SOURCES is set.
 * With --express-public the hot public reads are served by the express routes only, so one run
 * can compare them with the native uWS routes on the same data.
 *
 * BENCH_CPU_PROFILE=/path/x.cpuprofile profiles the server through node:inspector from the SIGUSR2
 * a benchmark sends when its measured phase begins (setup and start-up stay out of the profile)
 * and writes the profile when SIGTERM stops it (`--cpu-prof` wrote nothing for a child ended by a
 * signal). `tsx bench/profile-summary.ts /path/x.cpuprofile` summarises it.
 *
 * BENCH_HEAP_PROFILE=/path/x.heapprofile samples allocations the same way, counting what the
 * collector already took too: where the allocation of a command comes from, garbage included.
 * With BENCH_HEAP_PROMOTED=1 as well, only what outlived the young generation (promoted to old
 * space, the part that makes scavenges slow).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type * as Main from '../src/main';
import type * as ConfigModule from '../src/config/config';

// The compiled build, as `npm start` runs it (bench/run.ts builds it first); BENCH_SOURCES=1 runs
// the TypeScript sources through tsx instead, as `npm run dev` does.
const root = process.env.BENCH_SOURCES ? '../src' : '../dist/src';
const { startServer } = (await import(`${root}/main${process.env.BENCH_SOURCES ? '' : '.js'}`)) as typeof Main;
const { loadConfig } = (await import(`${root}/config/config${process.env.BENCH_SOURCES ? '' : '.js'}`)) as typeof ConfigModule;

/** One profile of the measured phase: how it starts, and how its result is taken at the end. */
interface Profiling {
  path: string;
  start(session: Session): Promise<unknown>;
  stop(session: Session): Promise<{ profile: object }>;
}

const profiling: Profiling | null = process.env.BENCH_HEAP_PROFILE
  ? {
      path: process.env.BENCH_HEAP_PROFILE,
      start: async (session) => {
        await session.post('HeapProfiler.enable');
        const includeObjectsCollectedByMinorGC = !process.env.BENCH_HEAP_PROMOTED;
        return session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC });
      },
      stop: (session) => session.post('HeapProfiler.stopSampling'),
    }
  : process.env.BENCH_CPU_PROFILE
    ? {
        path: process.env.BENCH_CPU_PROFILE,
        start: async (session) => {
          await session.post('Profiler.enable');
          await session.post('Profiler.setSamplingInterval', { interval: 200 });
          return session.post('Profiler.start');
        },
        stop: (session) => session.post('Profiler.stop'),
      }
    : null;
const inspector = profiling ? new Session() : null;
/** Only the process a benchmark signalled writes the profile (a run may start several servers). */
let profiled: Promise<unknown> | null = null;
if (inspector && profiling) {
  inspector.connect();
  process.once('SIGUSR2', () => (profiled = profiling.start(inspector)));
}

// BENCH_HEAP_SNAPSHOT=/path/x.heapsnapshot: a heap snapshot 5 s into the measured phase.
if (process.env.BENCH_HEAP_SNAPSHOT) {
  const path = process.env.BENCH_HEAP_SNAPSHOT;
  process.once('SIGUSR2', () => setTimeout(() => void import('node:v8').then((v8) => v8.writeHeapSnapshot(path)), 5_000));
}

// BENCH_LOOP_DELAY=1: the event loop's delays from SIGUSR2 on, printed to stderr at SIGTERM.
const loopDelay = process.env.BENCH_LOOP_DELAY ? monitorEventLoopDelay({ resolution: 1 }) : null;
if (loopDelay) process.once('SIGUSR2', () => loopDelay.enable());

const server = await startServer({
  config: loadConfig(process.env),
  rawPublicRoutes: !process.argv.includes('--express-public'),
});
process.once('SIGTERM', async () => {
  if (loopDelay) {
    const ms = (ns: number) => (ns / 1e6).toFixed(1);
    console.error(`event loop delay: p50 ${ms(loopDelay.percentile(50))} ms, p99 ${ms(loopDelay.percentile(99))} ms, max ${ms(loopDelay.max)} ms`);
  }
  if (inspector && profiling && profiled) {
    await profiled;
    const { profile } = await profiling.stop(inspector);
    await writeFile(profiling.path, JSON.stringify(profile));
    inspector.disconnect();
  }
  await server.close();
  process.exit(0);
});
