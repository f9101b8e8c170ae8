import { MatchRepository } from '../db/match-repository';
import type { Database } from '../db/orm';
import { DEMO_EARNING, seedDemoData, seedIfEmpty, type DemoSeedRepositories } from '../db/seed';
import { createRepositories, type Repositories } from './repositories';

/**
 * The demo seed's repositories: the server's own, and a match repository paying the demo's
 * rates. Also the composition of `npm run seed`, the tests and the benches that seed.
 */
export function demoSeedRepositories(db: Database, repos: Pick<Repositories, 'users' | 'points'>): DemoSeedRepositories {
  return { users: repos.users, points: repos.points, matches: new MatchRepository(db, DEMO_EARNING) };
}

/** Seeds an empty database (start-up with SEED_DEMO_DATA, and `npm run seed`). Returns whether it seeded. */
export const seedDemoIfEmpty = (db: Database, now: Date, repos: Pick<Repositories, 'users' | 'points'> = createRepositories(db)): Promise<boolean> =>
  seedIfEmpty(db, demoSeedRepositories(db, repos), now);

/** Seeds whatever the database holds (tests and benches on a fresh database). */
export const seedDemo = (db: Database, now: Date, repos: Pick<Repositories, 'users' | 'points'> = createRepositories(db)): Promise<void> =>
  seedDemoData(db, demoSeedRepositories(db, repos), now);
