/**
 * `npm run bench`: every benchmark of the project, each printing its figures beside the baseline
 * measured in the same run. Select some with `npm run bench -- public lobby`.
 */
import { execSync } from 'node:child_process';
import { benchPublicReads } from './public-reads';

type Bench = () => Promise<string[]>;

// Loaded on demand: a selected benchmark does not pay for importing the others.
const benches: Record<string, () => Promise<Bench>> = {
  public: async () => benchPublicReads,
  'lobby-rest': async () => (await import('./lobby-rest')).benchLobbyRest,
  'lobby-store-forms': async () => (await import('./lobby-store-forms')).benchLobbyStoreForms,
  'lobby-record-writes': async () => (await import('./lobby-record-writes')).benchLobbyRecordWrites,
  'lobby-chat': async () => (await import('./lobby-chat')).benchLobbyChat,
  'realtime-fanout': async () => (await import('./realtime-fanout')).benchRealtimeFanout,
  'realtime-fanout-redis': async () => (await import('./realtime-fanout-redis')).benchRealtimeFanoutRedis,
  'realtime-capacity': async () => (await import('./realtime-capacity')).benchRealtimeCapacity,
  'maps-upload': async () => (await import('./maps-upload')).benchMapsUpload,
  servers: async () => (await import('./servers')).benchServers,
  notifications: async () => (await import('./notifications')).benchNotifications,
  'community-thread': async () => (await import('./community-thread')).benchCommunityThread,
  'client-logs': async () => (await import('./client-logs')).benchClientLogs,
  'cold-start': async () => (await import('./cold-start')).benchColdStart,
  tournament: async () => (await import('./tournament')).benchTournament,
};

// The league server runs compiled in every benchmark (bench/serve.ts), as `npm start` runs it.
// BENCH_SKIP_BUILD=1 runs dist/ as it is: a build already made, or one changed by hand to try something.
if (!process.env.BENCH_SOURCES && !process.env.BENCH_SKIP_BUILD) execSync('npm run build', { stdio: ['ignore', 'ignore', 'inherit'] });

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const selected = wanted.length > 0 ? wanted : Object.keys(benches);
console.log(`command: npm run bench${wanted.length ? ' -- ' + wanted.join(' ') : ''}  (node ${process.version}, ${new Date().toISOString()})`);
for (const name of selected) {
  const load = benches[name];
  if (!load) {
    console.error(`unknown benchmark ${name}; known: ${Object.keys(benches).join(', ')}`);
    process.exitCode = 2;
    continue;
  }
  const started = Date.now();
  console.log(`\n== ${name}`);
  try {
    for (const line of await (await load())()) console.log(line);
  } catch (error) {
    console.error(`  failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  }
  console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
process.exit();
