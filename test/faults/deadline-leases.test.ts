import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisLiveStore, type RedisLiveStore } from '../../src/live/redis-live-store';
import { startOwnRedis, type OwnRedis } from '../support/own-redis';
import { figure, until } from '../support/timing';

const LEASE_MS = 1_000;
const PREFIX = 'leases:';

/** `mode` 'apply' starts polling only when told `go` on stdin (see deadline-worker-child.ts). */
function worker(redis: OwnRedis, mode: 'hang' | 'apply'): { child: ChildProcess; said(line: string): Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/faults/support/deadline-worker-child.ts'], {
    env: { PATH: process.env.PATH ?? '', REDIS_URL: redis.url, REDIS_PREFIX: PREFIX, MODE: mode, LEASE_MS: String(LEASE_MS) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const waiters: Array<() => void> = [];
  child.stdout!.on('data', (chunk) => {
    out += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  const said = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (out.includes(line) ? resolve() : waiters.push(check));
      child.once('exit', () => reject(new Error(`worker exited before saying "${line}": ${out}`)));
      check();
    });
  return { child, said };
}

async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('deadlines whose worker dies between claim and apply', () => {
  let redis: OwnRedis;
  let store: RedisLiveStore;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    redis = await startOwnRedis();
    store = await connectRedisLiveStore({ url: redis.url, prefix: PREFIX });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await store?.close();
    await redis?.stop();
  });

  it('each fire exactly once, within the lease and a second of the death, round after round', async () => {
    for (let round = 0; round < 3; round++) {
      const members = Array.from({ length: 5 }, (_, i) => `r${round}m${i}`);
      const dying = worker(redis, 'hang');
      children.push(dying.child);
      await dying.said('ready');
      for (const member of members) await store.schedule('q', member, Date.now());
      await dying.said('claimed');
      // Started and connected before the death, as another instance would be: the time measured
      // is the lease's, not a process start's on a busy machine.
      const survivor = worker(redis, 'apply');
      children.push(survivor.child);
      await survivor.said('ready');
      await killed(dying.child);
      const diedAt = Date.now();
      survivor.child.stdin!.write('go\n');
      const applied = await until('every deadline applied', async () => {
        const docs = await store.getMany<{ at: number }>(members.map((m) => `applied:${m}`));
        return docs.every((doc) => doc !== null) ? docs : null;
      }, LEASE_MS + 5_000);
      figure(`worker killed after its claim (lease ${LEASE_MS} ms): deadlines applied after`, Math.max(...applied.map((doc) => doc!.value.at)) - diedAt);
      for (const doc of applied) {
        expect(doc!.version).toBe(1);
        expect(doc!.value.at - diedAt).toBeLessThanOrEqual(LEASE_MS + 1_000);
      }
      await until('the queue is empty', async () => ((await store.scoreRange('q', -Infinity, Infinity)).length === 0 ? true : null), 2_000);
      await killed(survivor.child);
    }
  }, 60_000);
});
