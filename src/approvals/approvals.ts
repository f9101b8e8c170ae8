import * as v from 'valibot';
import { AdminAuditRepository } from '../db/admin-audit-repository';
import { ApprovalRepository, type ApprovalFilter, type ApprovalRecord } from '../db/approval-repository';
import type { EmSource, EntityManager } from '../db/orm';
import { checkDecidable } from '../domain/approvals/approval-decision';
import { conflict, notFound } from '../domain/domain-error';
import type { ApprovalDecision, ApprovalKind } from './approval-kind';
import type { ApprovalRegistry } from './approval-registry';

export interface ApprovalsDeps {
  db: EmSource;
  repo: ApprovalRepository;
  registry: ApprovalRegistry;
  clock: () => number;
}

/** Who decides: an admin account (the routes require it; the rule checks it again). */
export interface Decider {
  id: number;
  isAdmin: boolean;
}

/**
 * The one approvals module: every kind is requested, listed and decided here. A decision is one
 * transaction: the approval row locked, the kind's rules checked again and its change applied,
 * the row marked, and the admin audit row written; a rule that fails now rolls all of it back
 * and the approval stays pending.
 */
export class Approvals {
  readonly #repo: ApprovalRepository;

  constructor(private readonly deps: ApprovalsDeps) {
    this.#repo = deps.repo;
  }

  /**
   * Queues a change of a registered kind inside the caller's transaction (which holds whatever
   * lock makes the request consistent). `subjectKey` names the change: the same change asked
   * again answers the pending approval's id.
   */
  async requestIn<S>(em: EntityManager, kind: ApprovalKind<S>, subject: S, subjectKey: string | null, requestedBy: number): Promise<number> {
    if (this.deps.registry.get(kind.kind) !== kind) throw new Error(`approval kind ${kind.kind} is not registered`);
    const { id } = await ApprovalRepository.requestIn(em, { kind: kind.kind, subject, subjectKey, requestedBy });
    return id;
  }

  approve(id: number, decider: Decider, reason: string | null): Promise<ApprovalRecord> {
    return this.#decide(id, decider, reason, 'approved');
  }

  deny(id: number, decider: Decider, reason: string): Promise<ApprovalRecord> {
    return this.#decide(id, decider, reason, 'denied');
  }

  list(filter: ApprovalFilter): Promise<{ approvals: ApprovalRecord[]; total: number }> {
    return this.#repo.list(filter);
  }

  async #decide(id: number, decider: Decider, reason: string | null, status: 'approved' | 'denied'): Promise<ApprovalRecord> {
    const now = new Date(this.deps.clock());
    let done: { kind: ApprovalKind<unknown>; subject: unknown } | undefined;
    const record = await this.deps.db.em().transactional(async (em) => {
      const row = await ApprovalRepository.lockIn(em, id);
      if (!row) throw notFound('no such approval');
      const refused = checkDecidable(row.status, decider);
      if (refused) throw refused;
      const kind = this.deps.registry.get(row.kind);
      if (!kind) throw conflict('this server has no handler for that kind of approval');
      const parsed = v.safeParse(kind.subject, row.subject);
      if (!parsed.success) throw conflict('the approval subject is no longer valid');
      const decision: ApprovalDecision = { approvalId: id, decidedBy: decider.id, now, reason };
      if (status === 'approved') await kind.recheckAndApply(em, parsed.output, decision);
      else await kind.onDenied?.(em, parsed.output, decision);
      const decided = await ApprovalRepository.decideIn(em, id, status, decider.id, now, reason);
      await AdminAuditRepository.insertIn(em, {
        actorId: decider.id,
        action: status === 'approved' ? 'approvals.approve' : 'approvals.deny',
        targetType: 'approval',
        targetId: String(id),
        before: { status: 'pending', kind: row.kind, subject: row.subject },
        after: { status, kind: row.kind, subject: row.subject },
        reason,
      });
      done = { kind, subject: parsed.output };
      return decided;
    });
    done?.kind.afterDecision?.(done.subject, status);
    return record;
  }
}
