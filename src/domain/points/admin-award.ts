import { fail, invalid, succeed, type Outcome } from '../domain-error';
import { MAX_ENTRY_AMOUNT, type LedgerEntry } from './ledger-entry';

export interface AdminAwardInput {
  adminId: number;
  userId: number;
  amount: number;
  reason: string;
  /** The admin_audit row the award is written with: it names the award in the ledger. */
  auditId: number;
}

/** A grant (positive) or a correction (negative) by an admin; zero changes nothing and is refused. */
export function adminAwardEntry(input: AdminAwardInput): Outcome<LedgerEntry, never> {
  if (!Number.isInteger(input.amount) || input.amount === 0 || Math.abs(input.amount) > MAX_ENTRY_AMOUNT) {
    return fail(invalid(`amount must be a non-zero integer of at most ${MAX_ENTRY_AMOUNT} either way`));
  }
  const reason = input.reason.trim();
  if (reason === '') return fail(invalid('reason must not be empty'));
  return succeed({
    userId: input.userId,
    amount: input.amount,
    kind: 'admin_award',
    reason,
    actorId: input.adminId,
    sourceKey: `admin_award:${input.auditId}`,
  });
}
