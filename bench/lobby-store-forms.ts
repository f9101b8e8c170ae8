/*
 * How a lobby is best kept in Redis for one round trip per command (issue 28): the same vote
 * change, 3,000 times in a row on a 6v6-sized lobby, in each form the issue names. Prints wall
 * time, this process's CPU and Redis's own CPU (INFO commandstats) per command. Redis's CPU is
 * the figure that decides: Redis is the one part every instance shares.
 */
import { createClient } from 'redis';
import { connectRedisLiveStore } from '../src/live/redis-live-store';

const N = 3000;
const profiles: Record<string, unknown> = {};
for (let i = 1; i <= 12; i++) profiles[String(i)] = { id: i, platform_id: `7656119800000${i}`, username: `player number ${i}`, avatar_url: `https://avatars.example.com/avatars/${i}_full.jpg`, elo: 1500 + i, name_color: null, profile_frame: null };
const slot = (index: number) => ({ index, class: 'scout', userId: index + 1, readyUntil: null });
const lobby = {
  code: 'ABCDEF', name: 'bench lobby', format: '6v6', phase: 'gathering', hostId: 1, createdAt: Date.now(), region: 'eu', reservationId: null,
  captains: { red: 1, blu: 2 }, teams: { red: [0, 1, 2, 3, 4, 5].map(slot), blu: [0, 1, 2, 3, 4, 5].map(slot) }, pool: [],
  mapPool: ['cp_process_final', 'cp_gullywash_final1', 'cp_snakewater_final1', 'koth_product_final', 'cp_sunshine'], votes: {} as Record<string, string>,
  picks: [], readyCheckDeadline: null, startedAt: null, endedAt: null, scoreRed: null, scoreBlu: null, matchId: null, profiles, version: 1,
};

export async function benchLobbyStoreForms(): Promise<string[]> {
  const url = process.env.REDIS_URL;
  if (!url) return ['lobby store forms: skipped (needs REDIS_URL)'];
  const lines = [`lobby store forms: one vote change on a ${JSON.stringify(lobby).length}-byte lobby, ${N} times in a row, Redis at REDIS_URL`];
  const raw = createClient({ url });
  await raw.connect();
  const store = await connectRedisLiveStore({ url, prefix: 'bench-forms:' });
  const PATCH = `local doc = cjson.decode(redis.call('GET', KEYS[1]))
  if doc.version ~= tonumber(ARGV[1]) then return 0 end
  doc.votes[ARGV[2]] = ARGV[3]
  doc.version = doc.version + 1
  redis.call('SET', KEYS[1], cjson.encode(doc))
  return doc.version`;
  const sha = await raw.scriptLoad(PATCH);

  // Deltas of the server's counters (the Redis may be shared: its statistics are not reset).
  const redisUsec = async () => {
    const stats = String(await raw.sendCommand(['INFO', 'commandstats']));
    return [...stats.matchAll(/cmdstat_(evalsha|eval|get|set):calls=(\d+),usec=(\d+)/g)].reduce((sum, m) => sum + Number(m[3]), 0);
  };
  async function measure(label: string, run: (i: number) => Promise<void>) {
    const before = await redisUsec();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await run(i);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const usec = (await redisUsec()) - before;
    lines.push(`  ${label}: ${(ms / N).toFixed(3)} ms/command wall, node CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms, redis CPU ${(usec / N).toFixed(1)} us/command`);
  }

  // (a) as before: read the whole document, write the whole document (2 trips, 4 KB each way).
  await store.compareAndSet([{ key: 'a', expectedVersion: 0, value: lobby }]);
  await measure('whole JSON: read + compare-and-set', async (i) => {
    const doc = (await store.get<typeof lobby>('a'))!;
    const next = { ...doc.value, votes: { ...doc.value.votes, [String(i % 12)]: lobby.mapPool[i % 2] }, version: doc.value.version + 1 };
    await store.compareAndSet([{ key: 'a', expectedVersion: doc.version, value: next }]);
  });
  // (a') whole JSON, one trip (known version), still moving the whole document in.
  let version = (await store.get('a'))!.version;
  let state = lobby;
  await measure('whole JSON: compare-and-set on a known version', async (i) => {
    state = { ...state, votes: { ...state.votes, [String(i % 12)]: lobby.mapPool[i % 2] }, version: state.version + 1 };
    const r = await store.commit({ writes: [{ key: 'a', expectedVersion: version, value: state }] });
    if (!r.ok) throw new Error('conflict');
    version = r.versions[0];
  });
  // (b) hash of parts, one trip: only the parts that changed.
  await store.compareAndSet([{ key: 'b', expectedVersion: 0, value: lobby, parts: 'all' }]);
  version = 1;
  state = lobby;
  await measure('hash of parts: commit of the changed parts', async (i) => {
    state = { ...state, votes: { ...state.votes, [String(i % 12)]: lobby.mapPool[i % 2] }, version: state.version + 1 };
    const r = await store.commit({ writes: [{ key: 'b', expectedVersion: version, value: state, parts: ['votes', 'version'] }] });
    if (!r.ok) throw new Error('conflict');
    version = r.versions[0];
  });
  // (c) version-stamped JSON (cjson also turns an empty array into {}: the pool of a full lobby would come back an object). patched in place by Lua (cjson decode + encode of the whole document in Redis).
  await raw.set('bench-forms:c', JSON.stringify(lobby));
  let v = 1;
  await measure('JSON patched in place by Lua (cjson)', async (i) => {
    const r = await raw.evalSha(sha, { keys: ['bench-forms:c'], arguments: [String(v), String(i % 12), lobby.mapPool[i % 2]] });
    v = Number(r);
  });
  await raw.del(['prof:a', 'prof:b', 'bench-forms:c']);
  await store.close();
  await raw.quit();
  return lines;
}
