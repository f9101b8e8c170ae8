import { withCliDatabase } from './cli-database';

await withCliDatabase(async (db, logger) => {
  logger.info({ kind: db.kind }, 'migrations up to date');
});
