import type * as v from 'valibot';
import type { EntityManager } from '../db/orm';

/** The decision being made, handed to the kind so it can record who and when. */
export interface ApprovalDecision {
  approvalId: number;
  decidedBy: number;
  now: Date;
  reason: string | null;
}

/**
 * One kind of approval (team transfers, held forum posts...): the only code a new kind writes.
 * The approvals module owns the table, the listing, the locking of the row, the decision and the
 * audit row; the kind says what its subject looks like and what approving it changes.
 */
export interface ApprovalKind<S = unknown> {
  /** The stored `kind` ("team_transfer"); also listed in schema/approvals.ts for the wire. */
  readonly kind: string;
  /** The subject's shape: what is stored when it is requested and parsed again when decided. */
  readonly subject: v.GenericSchema<unknown, S>;
  /**
   * Checks every rule again at this moment and applies the change through `em`, inside the
   * transaction that marks the approval approved. Throw a DomainError (a conflict, usually) to
   * refuse: nothing is applied and the approval stays pending.
   */
  recheckAndApply(em: EntityManager, subject: S, decision: ApprovalDecision): Promise<void>;
  /** What a denial changes besides the approval row (an invite withdrawn, a post hidden), in the same transaction. */
  onDenied?(em: EntityManager, subject: S, decision: ApprovalDecision): Promise<void>;
  /** After either decision committed: push what clients show. Must not throw. */
  afterDecision?(subject: S, status: 'approved' | 'denied'): void;
}
