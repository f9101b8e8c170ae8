import type { LedgerEntry, Wallet } from '../domain/points/ledger-entry';
import type { EntityManager } from './orm';

/** A ledger row as the wire shows it (PointTransaction). */
export interface BookedEntry {
  id: number;
  userId: number;
  amount: number;
  kind: string;
  reason: string;
  balanceAfter: number;
  createdAt: Date;
}

export interface BookedRow {
  id: number;
  user_id: number;
  amount: number;
  kind: string;
  reason: string;
  balance_after: number;
  created_at: Date | string;
}

/**
 * Books entries inside the caller's transaction `em`, each user at most once per call. For every
 * entry one statement moves the balance row and appends the ledger row with the balance it left,
 * so the two never disagree; the move is conditional (`balance + amount >= 0`) on the row it locks,
 * so two spends racing from two instances queue on that row and the second sees what the first
 * left. An entry the balance cannot cover is not booked and is missing from the answer. A cause
 * booked before (same source key) fails the statement with a unique violation, which rolls the
 * caller's transaction back: nothing is ever paid twice.
 */
export async function bookIn(em: EntityManager, entries: readonly LedgerEntry[]): Promise<BookedEntry[]> {
  if (entries.length === 0) return [];
  const userIds = entries.map((e) => e.userId);
  if (new Set(userIds).size !== userIds.length) throw new Error('bookIn: one entry per user per call');
  await ensureBalanceRows(em, userIds);
  const rows = await em.execute<BookedRow[]>(
    `with v (user_id, amount, kind, reason, actor_id, source_key) as (
       values ${entries.map(() => '(?::int, ?::int, ?::text, ?::text, ?::int, ?::text)').join(', ')}
     ),
     moved as (
       update point_balances b set
         balance = b.balance + v.amount,
         lifetime_earned = b.lifetime_earned + greatest(v.amount, 0),
         lifetime_spent = b.lifetime_spent + greatest(-v.amount, 0),
         updated_at = now()
       from v
       where b.user_id = v.user_id and b.balance + v.amount >= 0
       returning b.user_id, b.balance
     )
     insert into point_transactions (user_id, amount, kind, reason, balance_after, actor_id, source_key)
     select v.user_id, v.amount, v.kind, v.reason, moved.balance, v.actor_id, v.source_key
     from v join moved on moved.user_id = v.user_id
     returning id, user_id, amount, kind, reason, balance_after, created_at`,
    entries.flatMap((e) => [e.userId, e.amount, e.kind, e.reason, e.actorId, e.sourceKey]),
  );
  return rows.map(toBookedEntry);
}

/** One entry; null when the balance cannot cover it. */
export async function bookOneIn(em: EntityManager, entry: LedgerEntry): Promise<BookedEntry | null> {
  const [booked] = await bookIn(em, [entry]);
  return booked ?? null;
}

/** The wallet, with its row locked until the caller's transaction ends (read, decide, then book). */
export async function lockWalletIn(em: EntityManager, userId: number): Promise<Wallet> {
  await ensureBalanceRows(em, [userId]);
  const [row] = await em.execute<WalletRow[]>(
    'select balance, lifetime_earned, lifetime_spent from point_balances where user_id = ? for update',
    [userId],
  );
  return toWallet(row);
}

/** The wallet as it is now; an account that never earned has an empty one. */
export async function walletIn(em: EntityManager, userId: number): Promise<Wallet> {
  const [row] = await em.execute<WalletRow[]>(
    'select balance, lifetime_earned, lifetime_spent from point_balances where user_id = ?',
    [userId],
  );
  return toWallet(row);
}

interface WalletRow {
  balance: number;
  lifetime_earned: number;
  lifetime_spent: number;
}

const toWallet = (row: WalletRow | undefined): Wallet =>
  row ? { balance: row.balance, lifetimeEarned: row.lifetime_earned, lifetimeSpent: row.lifetime_spent } : { balance: 0, lifetimeEarned: 0, lifetimeSpent: 0 };

/** A user's first entry creates their balance row at 0; an unknown user fails the foreign key. */
async function ensureBalanceRows(em: EntityManager, userIds: readonly number[]): Promise<void> {
  await em.execute(
    `insert into point_balances (user_id) select unnest(array[?]::int[]) order by 1 on conflict (user_id) do nothing`,
    [[...userIds]],
    'run',
  );
}

export function toBookedEntry(row: BookedRow): BookedEntry {
  return {
    id: row.id,
    userId: row.user_id,
    amount: row.amount,
    kind: row.kind,
    reason: row.reason,
    balanceAfter: row.balance_after,
    createdAt: new Date(row.created_at),
  };
}
