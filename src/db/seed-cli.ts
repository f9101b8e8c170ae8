import { withCliDatabase } from './cli-database';
import { seedIfEmpty } from './seed';

await withCliDatabase(async (db, logger) => {
  const seeded = await seedIfEmpty(db, new Date());
  logger.info({ kind: db.kind, seeded }, seeded ? 'demo data added' : 'database has users; nothing seeded');
});
