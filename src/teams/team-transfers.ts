import * as v from 'valibot';
import type { ApprovalDecision, ApprovalKind } from '../approvals/approval-kind';
import type { Approvals } from '../approvals/approvals';
import type { EntityManager } from '../db/orm';
import { TeamInviteRepository } from '../db/team-invite-repository';
import { accountIn, TeamRepository } from '../db/team-repository';
import { conflict, type Outcome } from '../domain/domain-error';
import { checkTransfer, join, kick, leave, rosterLocked, type TeamActor, type TeamEvent, type TeamState } from '../domain/teams';
import type { TeamCompetitions } from './team-competitions';

const Id = v.pipe(v.number(), v.integer(), v.minValue(1));

/** A roster change waiting for an admin: who joins, leaves or is kicked, and who asked. */
export const TransferSubject = v.object({
  action: v.picklist(['join', 'leave', 'kick']),
  team_id: Id,
  user_id: Id,
  /** Who asked: the joining or leaving player, or the kicker. */
  by_user_id: Id,
  /** The accepted invite a join came from. */
  invite_id: v.nullable(Id),
});
export type TransferSubject = v.InferOutput<typeof TransferSubject>;

export type TransferResult = { applied: true; team: TeamState } | { applied: false; approvalId: number };

export interface TeamTransfersDeps {
  competitions: TeamCompetitions;
  approvals: Approvals;
  /** After a change committed (a direct one or an approved one): tell the team's subscribers. */
  changed(teamId: number): void;
}

/**
 * Joins, leaves and kicks, one path whether they apply at once or wait: the pure rule first, then
 * the competitions the team plays in. A locked roster queues the change as a `team_transfer`
 * approval (this class is that kind's handler); approving runs the same checks again, at that
 * moment, and applies the change in the approval's transaction.
 */
export class TeamTransfers implements ApprovalKind<TransferSubject> {
  readonly kind = 'team_transfer';
  readonly subject = TransferSubject;

  constructor(private readonly deps: TeamTransfersDeps) {}

  /** With the team's row locked by the caller: apply the change now, or queue it when the roster is locked. */
  async requestIn(em: EntityManager, team: TeamState, subject: TransferSubject, actor: TeamActor, now: Date): Promise<TransferResult> {
    const outcome = ruleOf(team, subject, actor, now.getTime());
    if (!outcome.ok) throw outcome.error;
    const entries = await this.#entriesIn(em, subject);
    if (rosterLocked(team.id, entries)) {
      const key = `${subject.action}:${subject.team_id}:${subject.user_id}`;
      return { applied: false, approvalId: await this.deps.approvals.requestIn(em, this, subject, key, actor.id) };
    }
    return { applied: true, team: await this.#applyIn(em, subject, outcome, entries, now) };
  }

  async recheckAndApply(em: EntityManager, subject: TransferSubject, decision: ApprovalDecision): Promise<void> {
    const team = await TeamRepository.lockIn(em, subject.team_id);
    if (!team) throw conflict('the team no longer exists');
    if (subject.invite_id !== null) {
      const invite = await TeamInviteRepository.lockIn(em, subject.invite_id);
      if (invite?.status !== 'pending') throw conflict('the invite was withdrawn');
    }
    const requester = await accountIn(em, subject.by_user_id);
    if (!requester) throw conflict('the requesting account no longer exists');
    // The admin lets a locked roster change; the requester's own rights are checked as they are now.
    const outcome = ruleOf(team, subject, { id: subject.by_user_id, isAdmin: requester.isAdmin, banned: false }, decision.now.getTime());
    if (!outcome.ok) throw outcome.error;
    await this.#applyIn(em, subject, outcome, await this.#entriesIn(em, subject), decision.now);
  }

  async onDenied(em: EntityManager, subject: TransferSubject, decision: ApprovalDecision): Promise<void> {
    if (subject.invite_id !== null) await TeamInviteRepository.answerIn(em, subject.invite_id, 'cancelled', decision.now);
  }

  afterDecision(subject: TransferSubject, status: 'approved' | 'denied'): void {
    if (status === 'approved') this.deps.changed(subject.team_id);
  }

  /** The entries of the team and, for a join, of every team the player is on now. */
  async #entriesIn(em: EntityManager, subject: TransferSubject) {
    const teamIds = subject.action === 'join' ? [subject.team_id, ...(await TeamRepository.teamIdsOfIn(em, subject.user_id))] : [subject.team_id];
    return this.deps.competitions.currentEntriesOf([...new Set(teamIds)], em);
  }

  async #applyIn(em: EntityManager, subject: TransferSubject, outcome: Extract<Outcome<TeamState, TeamEvent>, { ok: true }>, entries: Awaited<ReturnType<TeamCompetitions['currentEntriesOf']>>, now: Date): Promise<TeamState> {
    const refused = checkTransfer(subject.action, subject.team_id, outcome.state.members.length, entries);
    if (refused) throw refused;
    await TeamRepository.applyIn(em, outcome.state, outcome.events, now);
    if (subject.action === 'join') await TeamInviteRepository.closePendingIn(em, subject.team_id, subject.user_id, now);
    return outcome.state;
  }
}

function ruleOf(team: TeamState, subject: TransferSubject, actor: TeamActor, now: number): Outcome<TeamState, TeamEvent> {
  switch (subject.action) {
    case 'join':
      return join(team, subject.user_id, actor, now);
    case 'leave':
      return leave(team, actor);
    case 'kick':
      return kick(team, subject.user_id, actor);
  }
}
