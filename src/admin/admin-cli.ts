import { machineTime } from '../clock/machine-time';
import { userInfo } from 'node:os';
import { withCliDatabase } from '../db/cli-database';
import { DomainError, forbidden } from '../domain/domain-error';
import { operatorKeyAdmin } from '../composition/operator-cli';
import { OperatorAdmin } from './operator-admin';

/**
 * The operator's admin commands, on the database this environment names (DATABASE_URL, or the
 * embedded one under DATA_DIR):
 *   npm run admin -- make-admin <platform_id|name>
 *   npm run admin -- issue-key <platform_id|name> [--label <text>]
 * issue-key prints only the raw key on stdout, so `KEY=$(npm run -s admin -- issue-key ...)` works.
 */
const USAGE = 'usage: admin make-admin <platform_id|name> | admin issue-key <platform_id|name> [--label <text>]';

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

const [command, ref, ...rest] = process.argv.slice(2);
if (!ref || (command !== 'make-admin' && command !== 'issue-key')) fail(USAGE, 2);
const labelAt = rest.indexOf('--label');
const label = labelAt >= 0 ? rest[labelAt + 1] : undefined;
if (labelAt >= 0 && !label) fail(USAGE, 2);
const operator = process.env.USER || userInfo().username || 'operator';

try {
  await withCliDatabase(
    async (db) => {
      const accounts = new OperatorAdmin(db);
      if (command === 'make-admin') {
        const user = await accounts.makeAdmin(ref, operator);
        process.stdout.write(`user ${user.id} (${user.platformId}) is admin\n`);
        // Logins set is_admin from configuration (removing an admin works by editing the list).
        process.stderr.write(`note: a login through the identity provider resets is_admin from ADMIN_PLATFORM_IDS; list ${user.platformId} there to keep it\n`);
        return;
      }
      const owner = await accounts.account(ref);
      if (!owner.isAdmin) throw forbidden('that account is not admin: run make-admin first');
      const issued = await operatorKeyAdmin(db, machineTime.wall).issueAdminKey({ operator }, owner.id, label);
      process.stderr.write(`admin key ${issued.id} (${issued.key_prefix}...) issued to user ${owner.id}; it is shown once:\n`);
      process.stdout.write(`${issued.raw_key}\n`);
    },
    { logLevel: 'warn' },
  );
} catch (error) {
  if (error instanceof DomainError) fail(error.message, 1);
  throw error;
}
