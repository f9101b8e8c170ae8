import { machineTime } from '../clock/machine-time';
import { withCliDatabase } from './cli-database';
import { seedDemoIfEmpty } from '../composition/demo-seed';

await withCliDatabase(async (db, logger) => {
  const seeded = await seedDemoIfEmpty(db, new Date(machineTime.wall()));
  logger.info({ kind: db.kind, seeded }, seeded ? 'demo data added' : 'database has users; nothing seeded');
});
