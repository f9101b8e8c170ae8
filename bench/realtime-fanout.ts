import { bareTarget, describeFanout, leagueTarget, measureFanout } from './realtime-fanout-run';
import { databaseLabel, startBareServers, startLeagueCluster } from './realtime-processes';

/**
 * Fan-out on one instance: 500 subscribers of one lobby, state changes through REST, against a
 * bare socket.io-on-uWS server broadcasting the same payload in the same run. The server runs
 * with the in-process live store (one instance needs no Redis); the clients are in this process.
 */
export async function benchRealtimeFanout(): Promise<string[]> {
  const cluster = await startLeagueCluster(1);
  let ours;
  let lobby;
  try {
    const [server] = cluster.instances;
    const target = await leagueTarget(cluster, server, server);
    // Two sets of subscribers in turn on the same server: patches (the live page's way), then whole lobbies.
    ours = { patches: await measureFanout(target, true), full: await measureFanout(target) };
    lobby = await target.lobby();
  } finally {
    await cluster.stop();
  }
  const [bare] = await startBareServers(1);
  let baseline;
  try {
    baseline = await measureFanout(bareTarget(bare, bare, lobby));
  } finally {
    await bare.stop();
  }
  return [
    ...describeFanout('fan-out, one instance', ours, baseline),
    `  payload: one ${JSON.stringify(lobby).length}-byte LobbyDetail per update; live store in memory; database: ${databaseLabel()}`,
  ];
}
