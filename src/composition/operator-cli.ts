import { KeyAdmin } from '../admin/key-admin';
import type { Database } from '../db/orm';
import { ApiKeys } from '../identity/api-keys';
import { createRepositories } from './repositories';

/**
 * The operator CLI's composition (npm run admin): the same key rules and audit as the server's
 * KeyAdmin, over the CLI's database. No server runs, so there is no queued key audit to flush.
 */
export function operatorKeyAdmin(db: Database, clock: () => number): KeyAdmin {
  const repos = createRepositories(db);
  const apiKeys = new ApiKeys({ keys: repos.apiKeys, audit: repos.keyAudit, flushAudit: async () => undefined, clock });
  return new KeyAdmin({ db, apiKeys, keys: repos.apiKeys, clock });
}
