/**
 * The server as a benchmark target, in its own process: `tsx bench/serve.ts [--express-public]`.
 * With --express-public the hot public reads are served by the express routes only, so one run
 * can compare them with the native uWS routes on the same data.
 */
import { loadConfig } from '../src/config/config';
import { startServer } from '../src/main';

const server = await startServer({
  config: loadConfig(process.env),
  rawPublicRoutes: !process.argv.includes('--express-public'),
});
process.once('SIGTERM', () => {
  server.close().then(() => process.exit(0));
});
