import { ConfigError, loadConfig, type Config } from './config/config';
import { installLastResort } from './observability/last-resort';
import { machineTime } from './clock/machine-time';
import { releaseStartupMemory } from './startup-memory';

/*
 * The process entry (`npm start`, `npm run dev`, the Dockerfile). The configuration is read before
 * the server's modules are loaded: a refused one (exit 2, one line naming the variable) then costs
 * a fraction of a second instead of loading the whole server first. src/main.ts is the
 * composition root; this file only starts it and stops it on SIGTERM/SIGINT.
 */

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}

try {
  // The stores' first steps (the embedded database's start) run while the server's modules load.
  const { beginStoreStart } = await import('./composition/store-start');
  const begun = beginStoreStart(config, machineTime.wall);
  const { startServer, EXIT_MARGIN_MS } = await import('./main');
  const server = await startServer({ config, begun });
  installLastResort(process, server.logger);
  const stopReleasing = releaseStartupMemory();
  const stop = (signal: string) => {
    server.logger.info({ signal }, 'shutting down');
    stopReleasing();
    // The last resort: whatever still holds the process (a socket that never closes), it exits.
    setTimeout(() => process.exit(1), config.shutdownDrainMs + EXIT_MARGIN_MS).unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (error) {
  process.stderr.write(`start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
