import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/orm';

const silent = pino({ level: 'silent' });

describe('embedded Postgres', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ dataDir: ':memory:', logger: silent, poolSize: 10 });
    await db.em().execute('create table probe (id serial primary key, v int not null)');
  });
  afterAll(() => db?.close());

  it('is what openDatabase starts without a database URL', () => {
    expect(db.kind).toBe('embedded');
  });

  it('keeps parameterised queries and transactions of different connections apart', async () => {
    // The ORM inlines parameters, but kysely, cursors and plain pg use the extended protocol
    // (Parse, Bind, Execute, Sync as separate messages), which the stock pglite-socket queue
    // interleaves between connections: measured 376 failed and 39 wrong answers out of 600.
    const pool = await db.orm.em.getConnection().getNativeClient();
    let wrong = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: 600 }, async (_, i) => {
        try {
          if (i % 5 === 0) {
            const client = await pool.connect();
            try {
              await client.query('begin');
              await client.query('insert into probe (v) values ($1)', [i]);
              const { rows } = await client.query('select count(*)::int as n from probe where v = $1', [i]);
              if (rows[0].n !== 1) wrong++;
              await client.query(i % 10 === 0 ? 'rollback' : 'commit');
            } finally {
              client.release();
            }
            return;
          }
          const { rows } = await pool.query(i % 2 ? 'select $1::int + 1 as x' : 'select $1::int * 2 as x, 7 as y', [i]);
          if (rows[0].x !== (i % 2 ? i + 1 : i * 2)) wrong++;
        } catch {
          failed++;
        }
      }),
    );
    const [{ n }] = await db.em().execute<{ n: number }[]>('select count(*)::int as n from probe');
    expect({ wrong, failed, committed: n }).toEqual({ wrong: 0, failed: 0, committed: 60 });
  });

  it('keeps ORM transactions atomic under concurrency', async () => {
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        db
          .em()
          .transactional(async (em) => {
            await em.execute('insert into probe (v) values (?)', [10_000 + i]);
            if (i % 2 === 0) throw new Error('roll back');
          })
          .catch(() => undefined),
      ),
    );
    const [{ n }] = await db.em().execute<{ n: number }[]>('select count(*)::int as n from probe where v >= 10000');
    expect(n).toBe(50);
  });

  it('recovers the backend for others when a transaction fails midway', async () => {
    await expect(
      db.em().transactional(async (em) => {
        await em.execute('insert into probe (v) values (-1)');
        await em.execute('select 1 / 0');
      }),
    ).rejects.toThrow();
    const [{ n }] = await db.em().execute<{ n: number }[]>('select count(*)::int as n from probe where v = -1');
    expect(n).toBe(0);
    expect(await db.ping()).toBe(true);
  });
});

describe('embedded Postgres on disk', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'league-pglite-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('keeps its data under <dataDir>/pglite across restarts', async () => {
    const first = await openDatabase({ dataDir, logger: silent });
    await first.migrate();
    await first.em().execute("insert into changelog_entries (title, body) values ('kept', 'across restarts')");
    await first.close();
    expect((await stat(join(dataDir, 'pglite'))).isDirectory()).toBe(true);

    const second = await openDatabase({ dataDir, logger: silent });
    try {
      const rows = await second.em().execute<{ title: string }[]>('select title from changelog_entries');
      expect(rows).toEqual([{ title: 'kept' }]);
      expect(await second.ping()).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('stops answering once closed, and closes twice without error', async () => {
    const db = await openDatabase({ dataDir, logger: silent });
    await db.close();
    await expect(db.close()).resolves.toBeUndefined();
    expect(await db.ping()).toBe(false);
  });
});
