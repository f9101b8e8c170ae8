import { describe, expect, it } from 'vitest';
import { adminAwardEntry } from '../../../src/domain/points/admin-award';
import { applyEntry, EMPTY_WALLET } from '../../../src/domain/points/ledger-entry';
import { matchEarnings } from '../../../src/domain/points/match-earnings';
import { redeemEntry } from '../../../src/domain/points/redeem-reward';

const reward = { id: 7, name: 'Gold frame', kind: 'profile_frame', cost: 1500, active: true };

describe('match earnings', () => {
  it('pay every player the played amount and a winner the win amount on top, keyed by match and player', () => {
    const entries = matchEarnings(12, [{ userId: 1, won: true }, { userId: 2, won: false }, { userId: 3, won: null }], { played: 10, won: 15 });
    expect(entries.map((e) => [e.userId, e.amount, e.kind, e.sourceKey])).toEqual([
      [1, 25, 'match', 'match:12:user:1'],
      [2, 10, 'match', 'match:12:user:2'],
      [3, 10, 'match', 'match:12:user:3'],
    ]);
  });

  it('book nothing for a player whose payout is zero', () => {
    expect(matchEarnings(1, [{ userId: 1, won: false }], { played: 0, won: 5 })).toEqual([]);
  });
});

describe('a wallet after an entry', () => {
  it('moves the balance and the lifetime totals', () => {
    const earned = applyEntry(EMPTY_WALLET, 40);
    expect(earned).toMatchObject({ ok: true, state: { balance: 40, lifetimeEarned: 40, lifetimeSpent: 0 } });
    const spent = applyEntry(earned.ok ? earned.state : EMPTY_WALLET, -15);
    expect(spent).toMatchObject({ ok: true, state: { balance: 25, lifetimeEarned: 40, lifetimeSpent: 15 } });
  });

  it('refuses to go below zero with payment_required, and a zero or fractional amount as invalid', () => {
    expect(applyEntry(EMPTY_WALLET, -1)).toMatchObject({ ok: false, error: { kind: 'payment_required' } });
    expect(applyEntry(EMPTY_WALLET, 0)).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect(applyEntry(EMPTY_WALLET, 1.5)).toMatchObject({ ok: false, error: { kind: 'invalid' } });
  });
});

describe('a redemption', () => {
  it('spends the cost under a key of user and reward, so a reward is bought at most once', () => {
    expect(redeemEntry(4, reward, false)).toMatchObject({ ok: true, state: { userId: 4, amount: -1500, kind: 'redeem', actorId: 4, sourceKey: 'redeem:user:4:reward:7' } });
  });

  it('is not_found for an unknown or inactive reward and conflict for one already owned', () => {
    expect(redeemEntry(4, null, false)).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    expect(redeemEntry(4, { ...reward, active: false }, false)).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    expect(redeemEntry(4, reward, true)).toMatchObject({ ok: false, error: { kind: 'conflict' } });
  });
});

describe('an admin award', () => {
  it('names the admin as actor and its audit row as the cause', () => {
    expect(adminAwardEntry({ adminId: 1, userId: 2, amount: -30, reason: ' correction ', auditId: 9 })).toMatchObject({
      ok: true,
      state: { userId: 2, amount: -30, kind: 'admin_award', reason: 'correction', actorId: 1, sourceKey: 'admin_award:9' },
    });
  });

  it('refuses a zero amount and an empty reason', () => {
    expect(adminAwardEntry({ adminId: 1, userId: 2, amount: 0, reason: 'x', auditId: 1 })).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect(adminAwardEntry({ adminId: 1, userId: 2, amount: 5, reason: '  ', auditId: 1 })).toMatchObject({ ok: false, error: { kind: 'invalid' } });
  });
});
