import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BoundParams, executeBound } from '../../src/db/bound-statement';
import { openDatabase, type Database } from '../../src/db/orm';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let t: TestDatabase;
/** The same database, opened with the query observer the server's metrics use. */
let observed: Database;
const statements: Array<{ sql: string; seconds: number; failed: boolean }> = [];

beforeAll(async () => {
  t = await createTestDatabase();
  observed = await openDatabase({
    databaseUrl: t.url,
    dataDir: ':memory:',
    logger: pino({ level: 'silent' }),
    timeoutMs: 0,
    onQuery: (sql, seconds, failed) => statements.push({ sql, seconds, failed }),
  });
});
afterAll(async () => {
  await observed?.close();
  await t?.drop();
});

it('numbers each value it keeps, in order', () => {
  const bound = new BoundParams();
  expect([bound.add('a'), bound.add(null), bound.add(3)]).toEqual(['$1', '$2', '$3']);
  expect(bound.values).toEqual(['a', null, 3]);
});

it('sends the values apart from the text, so quotes and question marks in them are only data', async () => {
  const json = JSON.stringify({ say: "it's ? and $1", n: 2 });
  const rows = await executeBound<{ say: string; n: number }>(t.db.em(), `select ($1::jsonb)->>'say' as say, ($1::jsonb->>'n')::int + $2::int as n`, [json, 40]);
  expect(rows).toEqual([{ say: "it's ? and $1", n: 42 }]);
});

it('tells the query metrics of a statement it ran, as the ORM tells them of its own', async () => {
  const sql = 'select $1::int + 1 as answer';
  await executeBound(observed.em(), sql, [1]);
  expect(statements.find((s) => s.sql === sql)).toMatchObject({ failed: false, seconds: expect.any(Number) });
});

it('tells the query metrics of a statement that failed, and throws its error', async () => {
  const sql = 'select $1::int as not_a_number';
  await expect(executeBound(observed.em(), sql, ['many'])).rejects.toThrow(/invalid input syntax/);
  expect(statements.find((s) => s.sql === sql)).toMatchObject({ failed: true });
});
