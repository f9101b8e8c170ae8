import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run admin -- ...` as the operator runs it: its own process, on the database DATABASE_URL names. */
function admin(database: TestDatabase, ...args: string[]): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/admin/admin-cli.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: database.url, USER: 'ops' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

const OPERATOR_ID = '76561198000000777';

describe('the operator admin CLI', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  const query = <T>(sql: string, params: unknown[] = []) => database.db.em().execute<T[]>(sql, params);

  it('makes an account that never logged in admin by platform id, with an audit row', async () => {
    const run = await admin(database, 'make-admin', OPERATOR_ID);
    expect(run.code).toBe(0);
    const [user] = await query<{ id: number; is_admin: boolean }>('select id, is_admin from users where platform_id = ?', [OPERATOR_ID]);
    expect(user.is_admin).toBe(true);
    const rows = await query<{ actor_id: number | null; reason: string }>(
      "select actor_id, reason from admin_audit where action = 'user.make_admin' and target_id = ?",
      [String(user.id)],
    );
    expect(rows).toEqual([{ actor_id: null, reason: 'operator CLI (ops)' }]);
  });

  it('issues an admin key, printing only the raw key on stdout, stored as its hash and audited', async () => {
    const run = await admin(database, 'issue-key', OPERATOR_ID, '--label', 'first key');
    expect(run.code).toBe(0);
    const raw = run.stdout.trim();
    expect(raw).toMatch(/^svc_ak_[A-Za-z0-9_-]{43}$/);
    const [key] = await query<{ id: number; key_hash: string; label: string }>('select id, key_hash, label from api_keys where key_prefix = ?', [raw.slice(0, 12)]);
    expect(key.key_hash).toBe(createHash('sha256').update(raw).digest('hex'));
    expect(key.label).toBe('first key');
    const rows = await query<{ after: Record<string, unknown> }>("select after from admin_audit where action = 'api_key.issue' and target_id = ?", [String(key.id)]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0].after)).not.toContain(raw);
  });

  it('refuses a key for an account that is not admin, and prints no key', async () => {
    await query("insert into users (platform_id, username) values ('76561198000000778', 'Plain')");
    const run = await admin(database, 'issue-key', 'plain');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('not admin');
  });

  it('answers a wrong command with its usage and exit code 2', async () => {
    const run = await admin(database, 'delete-everything');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('usage:');
  });
});
