import type { EmSource, EntityManager } from '../db/orm';
import { TeamInviteRepository, type TeamInviteRecord } from '../db/team-invite-repository';
import { accountIn, TeamRepository, type TeamRecord } from '../db/team-repository';
import { notFound } from '../domain/domain-error';
import {
  checkAnswer, checkInvite, createTeam, disband, editTeam, enteredAnywhere, setRole, type TeamActor, type TeamEvent, type TeamProfile, type TeamRole, type TeamState,
} from '../domain/teams';
import type { Outcome } from '../domain/domain-error';
import type { TeamCompetitions } from './team-competitions';
import type { TeamTransfers, TransferResult } from './team-transfers';

export interface TeamServiceDeps {
  db: EmSource;
  repo: TeamRepository;
  invites: TeamInviteRepository;
  competitions: TeamCompetitions;
  transfers: TeamTransfers;
  /** Whether the user is banned now. */
  isBanned(userId: number): Promise<boolean>;
  clock: () => number;
  /** After a change committed: tell the team's subscribers. */
  changed(teamId: number): void;
}

/** The account behind a request, as the team rules see it. */
export interface TeamCaller {
  id: number;
  isAdmin: boolean;
}

/**
 * Team commands: each one transaction that locks the team's row first, runs the pure rule, and
 * writes what it decided, so two commands on one team take turns on every instance.
 */
export class TeamService {
  readonly repo: TeamRepository;
  readonly invites: TeamInviteRepository;

  constructor(private readonly deps: TeamServiceDeps) {
    this.repo = deps.repo;
    this.invites = deps.invites;
  }

  async create(caller: TeamCaller, profile: TeamProfile): Promise<TeamRecord> {
    const actor = await this.#actor(caller);
    const now = this.#now();
    const outcome = createTeam(0, profile, actor, now.getTime());
    if (!outcome.ok) throw outcome.error;
    const id = await this.deps.db.em().transactional((em) => TeamRepository.createIn(em, profile, actor.id, now));
    return (await this.repo.get(id))!;
  }

  edit(caller: TeamCaller, teamId: number, patch: Partial<TeamProfile>): Promise<TeamRecord> {
    return this.#change(caller, teamId, async (_em, team, actor) => editTeam(team, patch, actor));
  }

  setRole(caller: TeamCaller, teamId: number, userId: number, role: TeamRole): Promise<TeamRecord> {
    return this.#change(caller, teamId, async (_em, team, actor) => setRole(team, userId, role, actor));
  }

  async disband(caller: TeamCaller, teamId: number): Promise<void> {
    await this.#change(caller, teamId, async (em, team, actor) =>
      disband(team, actor, enteredAnywhere(team.id, await this.deps.competitions.currentEntriesOf([team.id], em))),
    );
  }

  async invite(caller: TeamCaller, teamId: number, userId: number): Promise<TeamInviteRecord> {
    const actor = await this.#actor(caller);
    const now = this.#now();
    return this.deps.db.em().transactional(async (em) => {
      const team = await this.#lock(em, teamId);
      const refused = checkInvite(team, userId, actor);
      if (refused) throw refused;
      if (!(await accountIn(em, userId))) throw notFound('no such user');
      return TeamInviteRepository.insertIn(em, teamId, userId, actor.id, now);
    });
  }

  async decline(caller: TeamCaller, inviteId: number): Promise<void> {
    const actor = await this.#actor(caller);
    const invite = await this.#invite(inviteId);
    await this.deps.db.em().transactional(async (em) => {
      await TeamRepository.lockIn(em, invite.teamId);
      const current = (await TeamInviteRepository.lockIn(em, inviteId))!;
      const refused = checkAnswer(current, actor);
      if (refused) throw refused;
      await TeamInviteRepository.answerIn(em, inviteId, 'declined', this.#now());
    });
  }

  /** Joins at once, or queues the join when the roster is locked (the invite stays open until decided). */
  async accept(caller: TeamCaller, inviteId: number): Promise<TransferResult> {
    const actor = await this.#actor(caller);
    const invite = await this.#invite(inviteId);
    return this.#transfer(invite.teamId, async (em, team) => {
      // The team's lock first, then the invite's: the order disbanding takes them in.
      const current = (await TeamInviteRepository.lockIn(em, inviteId))!;
      const refused = checkAnswer(current, actor);
      if (refused) throw refused;
      return this.deps.transfers.requestIn(em, team, { action: 'join', team_id: team.id, user_id: actor.id, by_user_id: actor.id, invite_id: inviteId }, actor, this.#now());
    });
  }

  async leave(caller: TeamCaller, teamId: number): Promise<TransferResult> {
    const actor = await this.#actor(caller);
    return this.#transfer(teamId, (em, team) =>
      this.deps.transfers.requestIn(em, team, { action: 'leave', team_id: teamId, user_id: actor.id, by_user_id: actor.id, invite_id: null }, actor, this.#now()),
    );
  }

  async kick(caller: TeamCaller, teamId: number, userId: number): Promise<TransferResult> {
    const actor = await this.#actor(caller);
    return this.#transfer(teamId, (em, team) =>
      this.deps.transfers.requestIn(em, team, { action: 'kick', team_id: teamId, user_id: userId, by_user_id: actor.id, invite_id: null }, actor, this.#now()),
    );
  }

  async #transfer(teamId: number, run: (em: EntityManager, team: TeamState) => Promise<TransferResult>): Promise<TransferResult> {
    const result = await this.deps.db.em().transactional(async (em) => run(em, await this.#lock(em, teamId)));
    if (result.applied) this.deps.changed(teamId);
    return result;
  }

  async #change(
    caller: TeamCaller,
    teamId: number,
    rule: (em: EntityManager, team: TeamState, actor: TeamActor) => Promise<Outcome<TeamState, TeamEvent>>,
  ): Promise<TeamRecord> {
    const actor = await this.#actor(caller);
    await this.deps.db.em().transactional(async (em) => {
      const outcome = await rule(em, await this.#lock(em, teamId), actor);
      if (!outcome.ok) throw outcome.error;
      // The time is read once the lock is held: a change that waited follows the one it waited for.
      await TeamRepository.applyIn(em, outcome.state, outcome.events, this.#now());
    });
    this.deps.changed(teamId);
    return (await this.repo.get(teamId))!;
  }

  async #lock(em: EntityManager, teamId: number): Promise<TeamState> {
    const team = await TeamRepository.lockIn(em, teamId);
    if (!team) throw notFound('no such team');
    return team;
  }

  async #invite(inviteId: number): Promise<TeamInviteRecord> {
    const invite = await this.invites.get(inviteId);
    if (!invite) throw notFound('no such invite');
    return invite;
  }

  async #actor(caller: TeamCaller): Promise<TeamActor> {
    return { id: caller.id, isAdmin: caller.isAdmin, banned: await this.deps.isBanned(caller.id) };
  }

  #now(): Date {
    return new Date(this.deps.clock());
  }
}
