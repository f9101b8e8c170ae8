import pino from 'pino';
import { openDatabase } from './orm';

const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR || './data',
  logger,
});
try {
  await db.migrate();
  logger.info({ kind: db.kind }, 'migrations up to date');
} finally {
  await db.close();
}
