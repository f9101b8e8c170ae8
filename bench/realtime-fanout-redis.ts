import { bareTarget, describeFanout, leagueTarget, measureFanout } from './realtime-fanout-run';
import { startBareServers, startLeagueCluster } from './realtime-processes';

/**
 * Fan-out across two instances sharing Redis: the 500 subscribers on instance A, every command
 * sent to instance B, so each update crosses the Redis adapter. The baseline is two bare
 * socket.io-on-uWS servers with the plain Redis adapter, same payload, same run.
 */
export async function benchRealtimeFanoutRedis(): Promise<string[]> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl || !process.env.DATABASE_URL) {
    return ['fan-out, two instances: skipped (needs REDIS_URL and DATABASE_URL for the shared stores)'];
  }
  const cluster = await startLeagueCluster(2, { redisUrl });
  let ours;
  let lobby;
  try {
    const [a, b] = cluster.instances;
    const target = await leagueTarget(cluster, a, b);
    // Two sets of subscribers in turn on the same server: patches (the live page's way), then whole lobbies.
    ours = { patches: await measureFanout(target, true), full: await measureFanout(target) };
    lobby = await target.lobby();
  } finally {
    await cluster.stop();
  }
  const bare = await startBareServers(2, { redisUrl });
  let baseline;
  try {
    baseline = await measureFanout(bareTarget(bare[0], bare[1], lobby));
  } finally {
    await Promise.all(bare.map((server) => server.stop()));
  }
  return describeFanout('fan-out, two instances over Redis (subscribers on A, commands on B)', ours, baseline);
}
