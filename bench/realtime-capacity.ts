import { spawn } from 'node:child_process';
import { databaseLabel, startBareServers, startLeagueCluster, type BenchProcess } from './realtime-processes';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const CLIENT_PROCESSES = 4;
const SETTLE_MS = 3_000;

interface Held {
  connectS: number;
  release(): Promise<void>;
}

/** SOCKETS idle connections from CLIENT_PROCESSES processes (each under a raised `ulimit -n`). */
async function holdSockets(url: string): Promise<Held> {
  const started = Date.now();
  const perProcess = Math.ceil(SOCKETS / CLIENT_PROCESSES);
  const children = Array.from({ length: CLIENT_PROCESSES }, () =>
    spawn('bash', ['-c', `ulimit -n 65536 2>/dev/null || ulimit -n $(ulimit -Hn); exec "${process.execPath}" --import tsx bench/realtime-idle-clients.ts ${url} ${perProcess}`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve, reject) => {
          let out = '';
          child.stdout!.on('data', (chunk) => {
            out += chunk;
            if (out.includes('connected')) resolve();
          });
          child.once('exit', (code) => reject(new Error(`a client process exited (${code}) before connecting`)));
        }),
    ),
  );
  const connectS = (Date.now() - started) / 1000;
  return {
    connectS,
    async release() {
      await Promise.all(
        children.map((child) => {
          if (child.exitCode !== null) return undefined;
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          return exited;
        }),
      );
    },
  };
}

async function measure(server: BenchProcess): Promise<{ idleMb: number; loadedMb: number; connectS: number }> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const idleMb = server.rssMb();
  const held = await holdSockets(server.url);
  try {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { idleMb, loadedMb: server.rssMb(), connectS: held.connectS };
  } finally {
    await held.release();
  }
}

/**
 * Capacity: SOCKETS idle sockets (each subscribed to the lobby list) on one league instance,
 * the server's resident memory before and with them, against a bare socket.io-on-uWS server
 * holding the same sockets in the same run.
 */
export async function benchRealtimeCapacity(): Promise<string[]> {
  const cluster = await startLeagueCluster(1);
  let ours;
  try {
    ours = await measure(cluster.instances[0]);
  } finally {
    await cluster.stop();
  }
  const [bare] = await startBareServers(1);
  let baseline;
  try {
    baseline = await measure(bare);
  } finally {
    await bare.stop();
  }
  const perSocketKb = ((ours.loadedMb - ours.idleMb) * 1024) / SOCKETS;
  const mb = (n: number) => `${Math.round(n)} MB`;
  return [
    `capacity: ${SOCKETS.toLocaleString('en')} idle sockets on one instance (${CLIENT_PROCESSES} client processes, websocket, each in the lobby-list room)`,
    `  league server RSS: ${mb(ours.idleMb)} idle -> ${mb(ours.loadedMb)} with the sockets (${perSocketKb.toFixed(1)} KB per socket; connected in ${ours.connectS.toFixed(1)} s)`,
    `  bare socket.io on uWS RSS: ${mb(baseline.idleMb)} idle -> ${mb(baseline.loadedMb)} (connected in ${baseline.connectS.toFixed(1)} s)`,
    `  target < 600 MB: ${ours.loadedMb < 600 ? 'MET' : 'NOT MET'}; database: ${databaseLabel()}`,
  ];
}
