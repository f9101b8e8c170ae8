import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { migrations } from '../../src/db/migrations';
import { openDatabase } from '../../src/db/orm';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

describe('migrations', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.drop());

  it('create every table the entities map', async () => {
    const rows = await t.db
      .em()
      .execute<{ table_name: string }[]>(
        "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
      );
    expect(rows.map((r) => r.table_name)).toEqual([
      'admin_audit',
      'announcements',
      'api_key_audit',
      'api_keys',
      'approvals',
      'bans',
      'changelog_entries',
      'client_logs',
      'community_categories',
      'community_post_edits',
      'community_posts',
      'community_reports',
      'community_threads',
      'cup_entry_fees',
      'cup_final_rosters',
      'cup_payouts',
      'cup_refunds',
      'gift_codes',
      'lobby_records',
      'lobby_server_logs',
      'maps',
      'match_players',
      'matches',
      'mikro_orm_migrations',
      'notification_deliveries',
      'notification_events',
      'notification_webhooks',
      'openid_nonces',
      'point_balances',
      'point_redemptions',
      'point_rewards',
      'point_transactions',
      'premium_grants',
      'premium_orders',
      'rating_adjustments',
      'server_rcon_audit',
      'server_reservations',
      'server_status_log',
      'team_invites',
      'team_memberships',
      'teams',
      'tournament_entries',
      'tournament_matches',
      'tournaments',
      'users',
    ]);
  });

  it('leave nothing for the schema generator to change', async () => {
    expect(await t.db.orm.schema.getUpdateSchemaSQL()).toBe('');
  });

  it('are recorded once and not applied again', async () => {
    await t.db.migrate();
    const rows = await t.db.em().execute<{ name: string }[]>('select name from mikro_orm_migrations order by id');
    expect(rows.map((r) => r.name)).toEqual(migrations.map((m) => m.name));
  });

  it('answer a ping', async () => {
    expect(await t.db.ping()).toBe(true);
  });

  it('roll back to an empty schema and apply again', async () => {
    await t.db.orm.migrator.down({ to: 0 });
    const [{ n }] = await t.db
      .em()
      .execute<{ n: number }[]>(
        "select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name <> 'mikro_orm_migrations'",
      );
    expect(n).toBe(0);
    await t.db.migrate();
    expect(await t.db.orm.schema.getUpdateSchemaSQL()).toBe('');
  });

  // Two server processes share one Postgres; embedded PGlite belongs to a single process.
  it.runIf(process.env.DATABASE_URL)('apply once when two instances migrate at the same moment', async () => {
    await t.db.orm.migrator.down({ to: 0 });
    const other = await openDatabase({ databaseUrl: t.url, dataDir: ':memory:', logger: pino({ level: 'silent' }) });
    try {
      await Promise.all([t.db.migrate(), other.migrate()]);
    } finally {
      await other.close();
    }
    const rows = await t.db.em().execute<{ name: string }[]>('select name from mikro_orm_migrations order by id');
    expect(rows.map((r) => r.name)).toEqual(migrations.map((m) => m.name));
  });
});
