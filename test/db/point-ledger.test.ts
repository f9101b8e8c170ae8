import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEntry, EMPTY_WALLET, type LedgerEntry, type PointKind, type Wallet } from '../../src/domain/points/ledger-entry';
import { bookIn, bookOneIn, walletIn } from '../../src/db/point-ledger';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { makeUsers } from './fixtures';

/** earn: a match payout; spend: a redemption or avatar; award: an admin grant or correction. */
type Op = { type: 'earn' | 'spend' | 'award'; amount: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ type: fc.constant('earn' as const), amount: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ type: fc.constant('spend' as const), amount: fc.integer({ min: -120, max: -1 }) }),
  fc.record({ type: fc.constant('award' as const), amount: fc.integer({ min: -80, max: 100 }).filter((n) => n !== 0) }),
);

const KIND: Record<Op['type'], PointKind> = { earn: 'match', spend: 'redeem', award: 'admin_award' };
let sourceCounter = 0;
const entryOf = (userId: number, o: Op): LedgerEntry => ({
  userId,
  amount: o.amount,
  kind: KIND[o.type],
  reason: o.type,
  actorId: null,
  sourceKey: `test:${process.pid}:${++sourceCounter}`,
});

describe('the points ledger', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.drop());

  it('finds the reward catalogue in a freshly migrated database, without any seed: several active rewards of each kind', async () => {
    const rows = await t.db
      .em()
      .execute<{ kind: string; n: number }[]>('select kind, count(*)::int as n from point_rewards where active group by kind order by kind');
    expect(rows).toEqual([
      { kind: 'name_color', n: expect.any(Number) },
      { kind: 'profile_frame', n: expect.any(Number) },
    ]);
    for (const row of rows) expect(row.n).toBeGreaterThanOrEqual(3);
  });

  const book = (entry: LedgerEntry) => t.db.em().transactional((em) => bookOneIn(em, entry));

  async function ledgerOf(userId: number) {
    const rows = await t.db
      .em()
      .execute<{ amount: number; balance_after: number }[]>('select amount, balance_after from point_transactions where user_id = ? order by id', [userId]);
    return rows;
  }

  async function expectConsistent(userId: number, expected?: Wallet) {
    const wallet = await walletIn(t.db.em(), userId);
    const rows = await ledgerOf(userId);
    const sum = rows.reduce((total, row) => total + row.amount, 0);
    expect(wallet.balance).toBe(sum);
    expect(wallet.balance).toBeGreaterThanOrEqual(0);
    expect(wallet.balance).toBe(wallet.lifetimeEarned - wallet.lifetimeSpent);
    let running = 0;
    for (const row of rows) {
      running += row.amount;
      expect(row.balance_after).toBe(running);
      expect(row.balance_after).toBeGreaterThanOrEqual(0);
    }
    if (expected) expect(wallet).toEqual(expected);
    return { wallet, rows };
  }

  it('keeps the balance equal to the sum of its rows and never negative, for any sequence of earnings, spends and awards', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const [user] = await makeUsers(t.db, [{}]);
        let model = EMPTY_WALLET;
        for (const o of ops) {
          const booked = await book(entryOf(user.id, o));
          const next = applyEntry(model, o.amount);
          // The ledger books exactly what the rule allows, and refuses exactly what it refuses.
          expect(booked !== null).toBe(next.ok);
          if (next.ok) {
            model = next.state;
            expect(booked!.balanceAfter).toBe(model.balance);
          }
        }
        await expectConsistent(user.id, model);
      }),
      { numRuns: 25 },
    );
  });

  it('keeps the same invariants when the whole sequence is booked at once on separate connections', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 20 }), async (ops) => {
        const [user] = await makeUsers(t.db, [{}]);
        const results = await Promise.all(ops.map((o) => book(entryOf(user.id, o))));
        const { wallet, rows } = await expectConsistent(user.id);
        expect(rows).toHaveLength(results.filter((r) => r !== null).length);
        const bookedSum = results.reduce((total, r, i) => total + (r ? ops[i].amount : 0), 0);
        expect(wallet.balance).toBe(bookedSum);
      }),
      { numRuns: 15 },
    );
  });

  it('refuses a spend the balance cannot cover and writes nothing for it', async () => {
    const [user] = await makeUsers(t.db, [{}]);
    await book(entryOf(user.id, { type: 'earn', amount: 30 }));
    expect(await book(entryOf(user.id, { type: 'spend', amount: -31 }))).toBeNull();
    await expectConsistent(user.id, { balance: 30, lifetimeEarned: 30, lifetimeSpent: 0 });
  });

  it('never books the same source key twice: the second booking fails and its transaction rolls back', async () => {
    const [user] = await makeUsers(t.db, [{}]);
    const entry = entryOf(user.id, { type: 'earn', amount: 10 });
    await book(entry);
    await expect(book(entry)).rejects.toThrow(/unique|duplicate/i);
    await expectConsistent(user.id, { balance: 10, lifetimeEarned: 10, lifetimeSpent: 0 });
  });

  it('books several users in one statement, each with their own balance_after', async () => {
    const [a, b] = await makeUsers(t.db, [{}, {}]);
    await book(entryOf(a.id, { type: 'earn', amount: 5 }));
    const booked = await t.db.em().transactional((em) =>
      bookIn(em, [entryOf(a.id, { type: 'earn', amount: 7 }), entryOf(b.id, { type: 'earn', amount: 3 })]),
    );
    expect(booked.map((e) => [e.userId, e.balanceAfter]).sort()).toEqual([[a.id, 12], [b.id, 3]].sort());
  });

  it('cannot be made negative even by a statement that skips the rule: the database checks refuse it', async () => {
    const [user] = await makeUsers(t.db, [{}]);
    await book(entryOf(user.id, { type: 'earn', amount: 5 }));
    await expect(t.db.em().execute('update point_balances set balance = -1, lifetime_spent = lifetime_spent + 6 where user_id = ?', [user.id])).rejects.toThrow(/check/i);
  });
});
