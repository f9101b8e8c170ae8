import pino from 'pino';
import { openDatabase } from './orm';
import { seedIfEmpty } from './seed';

const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR || './data',
  logger,
});
try {
  await db.migrate();
  const seeded = await seedIfEmpty(db, new Date());
  logger.info({ kind: db.kind, seeded }, seeded ? 'demo data added' : 'database has users; nothing seeded');
} finally {
  await db.close();
}
