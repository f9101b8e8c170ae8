/**
 * A deadline worker in a process of its own, for the lease test: it polls queue `q` of the Redis
 * at REDIS_URL. MODE=hang: it claims, says so on stdout, and never applies (the parent kills it
 * there). MODE=apply: it applies each member once, idempotently, as the engine's tick does (a
 * compare-and-set on a version: a second run finds the work done and changes nothing), polling
 * from when a line reaches its stdin (the parent starts it before the other dies). Both say
 * `ready` once connected.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { startDeadlineWorker } from '../../../src/engine/deadline-worker';
import { connectRedisLiveStore } from '../../../src/live/redis-live-store';

const live = await connectRedisLiveStore({ url: process.env.REDIS_URL!, prefix: process.env.REDIS_PREFIX! });
const hang = process.env.MODE === 'hang';
if (!hang) {
  process.stdout.write('ready\n');
  await once(createInterface({ input: process.stdin }), 'line');
}
startDeadlineWorker({
  live,
  clock: Date.now,
  intervalMs: 20,
  leaseMs: Number(process.env.LEASE_MS),
  onError: (error) => process.stderr.write(`${String(error)}\n`),
  queues: [
    {
      queue: 'q',
      run: async (member) => {
        if (hang) {
          process.stdout.write(`claimed ${member}\n`);
          return new Promise<void>(() => undefined);
        }
        await live.compareAndSet([{ key: `applied:${member}`, expectedVersion: 0, value: { at: Date.now(), pid: process.pid } }]);
      },
    },
  ],
});
if (hang) process.stdout.write('ready\n');
