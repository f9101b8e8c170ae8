import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../src/db/orm';
import { poll } from '../support/poll';

/**
 * What `npm start` uses with no DATABASE_URL: embedded PGlite, one backend serving every pooled
 * connection in turn. A connection whose statement waits behind another connection's open
 * transaction is a stalled connection as a silent server's would be: the breaker is attached
 * there too, trips on that stall, refuses the next call at once, and closes once PGlite answers.
 */
const BOUND_MS = 300;
let db: Database;

beforeAll(async () => {
  db = await openDatabase({ dataDir: ':memory:', logger: pino({ level: 'silent' }), poolSize: 4, timeoutMs: BOUND_MS, template: 'none' });
}, 60_000);
let endTransaction: () => void = () => undefined;
afterAll(async () => {
  endTransaction();
  await db?.close();
});

const codeOf = (work: Promise<unknown>) => work.then(() => 'answered', (error: { code?: string; message?: string }) => error.code ?? error.message ?? 'failed');

it('has the breaker attached on embedded PGlite: a stalled connection trips it, the next call is refused at once, and it serves again once PGlite answers', async () => {
  expect(db.kind).toBe('embedded');
  const held = new Promise<void>((resolve) => (endTransaction = resolve));
  let begun!: () => void;
  const inTransaction = new Promise<void>((resolve) => (begun = resolve));
  const transaction = db.em().transactional(async (em) => {
    await em.execute('select 1');
    begun();
    await held;
  });
  await inTransaction;
  // Another connection waits behind that transaction (to open, or for its statement's answer): the stall.
  const stalled = await codeOf(db.em().execute('select 2'));
  expect(stalled).toMatch(/Query read timeout|Connection terminated|timeout exceeded when trying to connect|^08/);

  const started = performance.now();
  expect(await codeOf(db.em().execute('select 3'))).toBe('08006');
  expect(performance.now() - started).toBeLessThan(BOUND_MS);

  endTransaction();
  await transaction.catch(() => undefined);
  await poll(() => codeOf(db.em().execute('select 4')), (code) => code === 'answered', { what: 'embedded PGlite answering again', withinMs: 10_000 });
}, 30_000);

it('bounds a transaction as a whole on embedded PGlite, which ignores the server-side timeouts: past two bounds its next statement is refused (57014)', async () => {
  await poll(() => codeOf(db.em().execute('select 5')), (code) => code === 'answered', { what: 'embedded PGlite answering', withinMs: 10_000 });
  const [setting] = await db.em().execute<Array<{ statement_timeout: string }>>('show statement_timeout');
  expect(setting.statement_timeout).toBe('0');
  vi.useFakeTimers({ toFake: ['performance'] });
  try {
    const outcome = await codeOf(
      db.em().transactional(async (em) => {
        await em.execute('select 6');
        vi.advanceTimersByTime(2 * BOUND_MS + 1);
        await em.execute('select 7');
      }),
    );
    expect(outcome).toBe('57014');
  } finally {
    vi.useRealTimers();
  }
  expect(await codeOf(db.em().execute('select 8'))).toBe('answered');
});

describe.skipIf(!process.env.DATABASE_URL)('on a Postgres server', () => {
  it('sets every pooled session to end a transaction left idle after the bound', async () => {
    const server = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: ':memory:', logger: pino({ level: 'silent' }), timeoutMs: BOUND_MS });
    try {
      const [row] = await server.em().execute<Array<{ idle_in_transaction_session_timeout: string }>>('show idle_in_transaction_session_timeout');
      expect(row.idle_in_transaction_session_timeout).toBe(`${BOUND_MS}ms`);
    } finally {
      await server.close();
    }
  });
});
