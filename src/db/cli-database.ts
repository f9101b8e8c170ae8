import pino, { type Logger } from 'pino';
import { openDatabase, type Database } from './orm';

/**
 * For the small database commands (`npm run migrate`, `npm run seed`): the database the server
 * would open with this environment, migrated, handed to `work`, and closed.
 */
export async function withCliDatabase(work: (db: Database, logger: Logger) => Promise<void>, options: { logLevel?: string } = {}): Promise<void> {
  const logger = pino({ level: process.env.LOG_LEVEL ?? options.logLevel ?? 'info' });
  const db = await openDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.DATA_DIR || './data',
    logger,
  });
  try {
    await db.migrate();
    await work(db, logger);
  } finally {
    await db.close();
  }
}
