import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { DatabaseBreaker, type PoolClient } from '../../../src/db/database-breaker';

/**
 * The breaker is ours; pg's pool is the port it wraps, here a fake that answers or fails each
 * statement as the test says.
 */
type Answer = () => Promise<unknown>;
const answered: Answer = () => Promise.resolve({ rows: [] });
const stalled: Answer = () => Promise.reject(Object.assign(new Error('Query read timeout'), {}));
const duplicate: Answer = () => Promise.reject(Object.assign(new Error('duplicate key'), { code: '23505' }));

function fakePool() {
  const statements: string[] = [];
  const state = { next: answered, connects: 0 };
  const pool = {
    connect: async (): Promise<PoolClient> => {
      state.connects += 1;
      return { query: (text: unknown) => (statements.push(String(text)), state.next()), release: () => undefined };
    },
  };
  return { pool, statements, state };
}

const codeOf = (promise: unknown) => (promise as Promise<unknown>).then(() => 'answered', (error: { code?: string }) => error.code ?? 'no code');

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] }));
afterEach(() => vi.useRealTimers());

it('refuses every connection at once after one statement met a silent database, until its probe gets an answer', async () => {
  const { pool, state, statements } = fakePool();
  const breaker = new DatabaseBreaker();
  breaker.attach(pool);
  const client = (await pool.connect()) as PoolClient;
  state.next = stalled;
  await expect(client.query('select 1')).rejects.toThrow('Query read timeout');
  expect(breaker.open).toBe(true);
  const connectsBefore = state.connects;
  expect(await codeOf(pool.connect())).toBe('08006');
  expect(state.connects).toBe(connectsBefore);

  state.next = answered;
  await vi.advanceTimersByTimeAsync(250);
  expect(statements.at(-1)).toBe('select 1');
  expect(breaker.open).toBe(false);
  expect(await codeOf(pool.connect())).toBe('answered');
});

it('does not trip on one statement failing on its own (a constraint, a cancelled query)', async () => {
  const { pool, state } = fakePool();
  const breaker = new DatabaseBreaker();
  breaker.attach(pool);
  const client = (await pool.connect()) as PoolClient;
  state.next = duplicate;
  expect(await codeOf(client.query('insert into t values (1)'))).toBe('23505');
  expect(breaker.open).toBe(false);
});

it('fails a statement of a transaction past its deadline at once (57014), lets its rollback through, and bounds the next transaction afresh', async () => {
  const { pool, statements } = fakePool();
  new DatabaseBreaker(1_000).attach(pool);
  const client = (await pool.connect()) as PoolClient;
  expect(await codeOf(client.query('begin'))).toBe('answered');
  expect(await codeOf(client.query('select 1'))).toBe('answered');
  vi.advanceTimersByTime(1_001);
  expect(await codeOf(client.query({ text: 'update t set x = 1', values: [] }))).toBe('57014');
  expect(await codeOf(client.query('rollback'))).toBe('answered');
  expect(statements).toEqual(['begin', 'select 1', 'rollback']);
  expect(await codeOf(client.query('begin'))).toBe('answered');
  expect(await codeOf(client.query('select 2'))).toBe('answered');
});

it('sets no deadline on a transaction begun inside withoutTransactionDeadline (the migrations at start-up), and bounds the next one again', async () => {
  const { pool } = fakePool();
  const breaker = new DatabaseBreaker(1_000);
  breaker.attach(pool);
  const client = (await pool.connect()) as PoolClient;
  await breaker.withoutTransactionDeadline(async () => {
    expect(await codeOf(client.query('begin'))).toBe('answered');
    vi.advanceTimersByTime(5_000);
    expect(await codeOf(client.query('create table t (x int)'))).toBe('answered');
    expect(await codeOf(client.query('commit'))).toBe('answered');
  });
  expect(await codeOf(client.query('begin'))).toBe('answered');
  vi.advanceTimersByTime(1_001);
  expect(await codeOf(client.query('select 1'))).toBe('57014');
});
