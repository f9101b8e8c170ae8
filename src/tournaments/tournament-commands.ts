import type { TournamentCreateBody, TournamentPatchBody } from '../../schema/tournaments';
import { DEFAULT_PRIZES, type CupTerms } from '../domain/cups';
import { conflict, forbidden, invalid, notFound, type DomainError, type Outcome } from '../domain/domain-error';
import { teamSize, type LobbyFormat } from '../domain/lobby/formats';
import {
  beforeStart, cancellable, checkInOpen, checkSettings, confirmResult, disputeResult, generateBracket, pairSwissRound,
  reportResult, seedTeams, setAdminResult, settleBracket, type BracketMatch, type Forfeit, type MatchEvent, type ResultWrite,
  type TournamentSettings,
} from '../domain/tournaments';
import type { EntityManager } from '../db/orm';
import type { StoredMatch, TournamentRecord, TournamentRepository } from '../db/tournament-repository';
import { TournamentTeamReads } from '../db/tournament-team-reads';
import type { NotificationOutbox } from '../db/notification-outbox';
import { commitBracketIn, notifyIn } from './bracket-writes';
import type { EntryFeePort } from './entry-fee';

export interface TournamentCommandsDeps {
  repo: TournamentRepository;
  fees: EntryFeePort;
  clock: () => number;
  /** The notifications outbox: tournament events are written in the change's transaction. None: no events. */
  outbox?: NotificationOutbox;
  /** After a committed change: the tournament's new state goes out to watchers (tournament:update). */
  changed(id: number): void;
  /** Whether the user is banned at that moment, read in the change's transaction. */
  isBanned(em: EntityManager, userId: number, now: Date): Promise<boolean>;
}

const raise = (error: DomainError | null): void => {
  if (error) throw error;
};

function unwrap<S>(outcome: Outcome<S, unknown>): S {
  if (!outcome.ok) throw outcome.error;
  return outcome.state;
}

function exists(t: TournamentRecord | null): TournamentRecord {
  if (t === null) throw notFound('tournament not found');
  return t;
}

/**
 * Every tournament change: each runs in one transaction under the tournament's row lock, calls
 * the pure rules, writes, and bumps the version; watchers hear of it once it committed.
 */
export class TournamentCommands {
  constructor(private readonly deps: TournamentCommandsDeps) {}

  private now(): Date {
    return new Date(this.deps.clock());
  }

  private async locked<T>(id: number, work: (em: EntityManager, t: TournamentRecord) => Promise<T>): Promise<T> {
    const result = await this.deps.repo.lockedIn(id, (em, t) => work(em, exists(t)));
    this.deps.changed(id);
    return result;
  }

  async create(body: TournamentCreateBody, adminId: number): Promise<number> {
    const settings: TournamentSettings = {
      name: body.name, format: body.format, kind: body.kind, maxTeams: body.max_teams, bestOf: body.best_of ?? 1,
      swissRounds: body.swiss_rounds ?? null, startsAt: new Date(body.starts_at), checkInMinutes: body.check_in_minutes ?? 0,
      rosterLocked: body.roster_locked ?? true,
    };
    raise(checkSettings(settings));
    if ((body.prizes !== undefined || body.house_percent !== undefined) && !body.entry_fee) throw invalid('prizes and house_percent are for a cup: give an entry_fee');
    const cup: CupTerms | null = body.entry_fee
      ? { entryFee: body.entry_fee, prizes: body.prizes ?? [...DEFAULT_PRIZES], housePercent: body.house_percent ?? 0 }
      : null;
    raise(this.deps.fees.checkTerms(cup));
    return this.deps.repo.create(settings, adminId, cup);
  }

  update(id: number, patch: TournamentPatchBody): Promise<void> {
    return this.locked(id, async (em, t) => {
      raise(beforeStart(t, 'editing'));
      const settings: TournamentSettings = {
        name: patch.name ?? t.name, format: patch.format ?? t.format, kind: patch.kind ?? t.kind, maxTeams: patch.max_teams ?? t.maxTeams,
        bestOf: patch.best_of ?? t.bestOf, swissRounds: patch.swiss_rounds ?? (patch.kind && patch.kind !== 'swiss' ? null : t.swissRounds),
        startsAt: patch.starts_at ? new Date(patch.starts_at) : t.startsAt, checkInMinutes: patch.check_in_minutes ?? t.checkInMinutes,
        rosterLocked: patch.roster_locked ?? t.rosterLocked,
      };
      raise(checkSettings(settings));
      const entries = await this.deps.repo.entries([id], em);
      if (entries.length > settings.maxTeams) throw conflict('max_teams must not be below the number of teams entered');
      await this.deps.repo.updateSettingsIn(em, id, settings);
      await this.deps.repo.bumpVersionIn(em, id);
    });
  }

  cancel(id: number): Promise<void> {
    return this.locked(id, async (em, t) => {
      raise(cancellable(t));
      for (const entry of await this.deps.repo.entries([id], em)) await this.deps.fees.refundIn(em, t, entry.team.id);
      await this.deps.repo.setStatusIn(em, id, 'cancelled');
      await this.deps.repo.bumpVersionIn(em, id);
    });
  }

  /**
   * Enters a team. `payment` names the paid order of a money cup's entry (the cups area's
   * capture); the fee port takes the fee in the same transaction.
   */
  enter(id: number, teamId: number, userId: number, payment?: string): Promise<void> {
    return this.locked(id, async (em, t) => {
      await this.admissibleIn(em, t, teamId, userId);
      await this.deps.fees.chargeIn(em, t, teamId, userId, payment);
      await this.deps.repo.insertEntryIn(em, id, teamId, userId);
      await this.deps.repo.bumpVersionIn(em, id);
    });
  }

  /** Every rule of entering, nothing written: a money cup checks them before it opens a PayPal order. */
  checkEntry(id: number, teamId: number, userId: number): Promise<TournamentRecord> {
    return this.deps.repo.lockedIn(id, async (em, found) => {
      const t = exists(found);
      await this.admissibleIn(em, t, teamId, userId);
      return t;
    });
  }

  private async admissibleIn(em: EntityManager, t: TournamentRecord, teamId: number, userId: number): Promise<void> {
    const id = t.id;
    await this.notBannedIn(em, userId);
    if (beforeStart(t, 'entering') !== null) throw conflict('signups are closed');
    const size = await TournamentTeamReads.rosterSizeIn(em, teamId);
    if (size === null) throw notFound('team not found');
    const role = (await TournamentTeamReads.rolesIn(em, userId, [teamId])).get(teamId);
    if (role !== 'leader' && role !== 'captain') throw forbidden('only the team leader or a captain may enter the team');
    const entries = await this.deps.repo.entries([id], em);
    if (entries.some((e) => e.team.id === teamId)) throw conflict('the team is already entered');
    if (entries.length >= t.maxTeams) throw conflict('the tournament is full');
    if (size < teamSize(t.format as LobbyFormat)) throw conflict(`the team needs at least ${teamSize(t.format as LobbyFormat)} members for this format`);
    const shared = await TournamentTeamReads.sharedPlayerIn(em, id, teamId);
    if (shared !== null) throw conflict(`player ${shared} is already on another team entered in this tournament`);
  }

  withdraw(id: number, teamId: number, userId: number): Promise<void> {
    return this.locked(id, async (em, t) => {
      raise(beforeStart(t, 'withdrawing'));
      const role = (await TournamentTeamReads.rolesIn(em, userId, [teamId])).get(teamId);
      if (role !== 'leader' && role !== 'captain') throw forbidden('only the team leader or a captain may withdraw the team');
      if (!(await this.deps.repo.withdrawEntryIn(em, id, teamId))) throw notFound('the team is not entered');
      await this.deps.fees.refundIn(em, t, teamId);
      await this.deps.repo.bumpVersionIn(em, id);
    });
  }

  /** A banned player takes no part: no entry, check-in or result (withdrawing stays open, and admins decide the rest). */
  private async notBannedIn(em: EntityManager, userId: number): Promise<void> {
    if (await this.deps.isBanned(em, userId, this.now())) throw forbidden('you are banned');
  }

  checkIn(id: number, teamId: number, userId: number): Promise<void> {
    return this.locked(id, async (em, t) => {
      await this.notBannedIn(em, userId);
      const role = (await TournamentTeamReads.rolesIn(em, userId, [teamId])).get(teamId);
      if (role === undefined) throw forbidden('only a member of the team may check it in');
      const entries = await this.deps.repo.entries([id], em);
      if (!entries.some((e) => e.team.id === teamId)) throw notFound('the team is not entered');
      raise(checkInOpen(t, this.now()));
      await this.deps.repo.checkInIn(em, id, teamId);
      await this.deps.repo.bumpVersionIn(em, id);
    });
  }

  start(id: number): Promise<void> {
    return this.locked(id, async (em, t) => {
      if (t.status !== 'signups') throw conflict('the tournament has already started or ended');
      const entries = await this.deps.repo.entries([id], em);
      const present = entries.filter((e) => t.checkInMinutes === 0 || e.checkedIn);
      const averages = await TournamentTeamReads.averageEloIn(em, present.map((e) => e.team.id));
      const seeded = seedTeams(present.map((e) => ({ teamId: e.team.id, averageElo: averages.get(e.team.id) ?? 0, enteredAt: e.enteredAt })));
      const bracket = unwrap(generateBracket(t.kind, seeded, t.swissRounds));
      await this.deps.repo.insertMatchesIn(em, id, 0, bracket);
      await this.deps.repo.writeEntriesIn(em, id, [
        ...seeded.map((teamId, index) => ({ teamId, status: 'active' as const, seed: index + 1, finalRank: null })),
        ...entries.filter((e) => !present.includes(e)).map((e) => ({ teamId: e.team.id, status: 'dropped' as const, seed: null, finalRank: null })),
      ]);
      await notifyIn(em, this.deps.outbox, t, [], bracket, entries, null);
      await this.deps.repo.setStatusIn(em, id, 'running');
      await this.deps.repo.bumpVersionIn(em, id);
    });
  }

  nextRound(id: number): Promise<void> {
    return this.locked(id, async (em, t) => {
      if (t.kind !== 'swiss') throw conflict('only a Swiss tournament is paired round by round');
      if (t.status !== 'running') throw conflict('the tournament is not running');
      // One after the other: both run on the transaction's one connection.
      const matches = await this.deps.repo.matches(id, em);
      const entries = await this.deps.repo.entries([id], em);
      const seeded = entries.filter((e) => e.seed !== null).sort((a, b) => a.seed! - b.seed!).map((e) => e.team.id);
      const paired = unwrap(pairSwissRound(seeded, matches, t.swissRounds ?? 0));
      const settled = settleBracket([...matches, ...paired]);
      if (!settled.ok) throw settled.error;
      await commitBracketIn(em, this.deps.repo, t, matches, settled.matches, entries, this.deps);
    });
  }

  /** Report, confirm or dispute by the caller's team (the one of the match they lead or captain). */
  play(id: number, matchId: number, userId: number, act: (matches: BracketMatch[], key: string, byTeam: number | null) => Outcome<ResultWrite, MatchEvent>): Promise<StoredMatch> {
    return this.resultWrite(id, matchId, false, async (em, match, matches) => {
      await this.notBannedIn(em, userId);
      const teams = [match.homeTeamId, match.awayTeamId].filter((team): team is number => team !== null);
      const roles = await TournamentTeamReads.rolesIn(em, userId, teams);
      const byTeam = teams.find((team) => roles.get(team) === 'leader' || roles.get(team) === 'captain') ?? null;
      return act(matches, match.key, byTeam);
    });
  }

  report(id: number, matchId: number, userId: number, homeScore: number, awayScore: number): Promise<StoredMatch> {
    return this.play(id, matchId, userId, (matches, key, team) => reportResult(matches, key, team, homeScore, awayScore));
  }

  confirm(id: number, matchId: number, userId: number): Promise<StoredMatch> {
    return this.play(id, matchId, userId, (matches, key, team) => confirmResult(matches, key, team));
  }

  dispute(id: number, matchId: number, userId: number, reason: string): Promise<StoredMatch> {
    return this.play(id, matchId, userId, (matches, key, team) => disputeResult(matches, key, team, reason));
  }

  adminResult(id: number, matchId: number, input: { homeScore: number; awayScore: number; forfeit: Forfeit | null; resetDependents: boolean }): Promise<StoredMatch> {
    return this.resultWrite(id, matchId, true, async (_em, match, matches) => setAdminResult(matches, match.key, input));
  }

  private resultWrite(
    id: number,
    matchId: number,
    correction: boolean,
    decide: (em: EntityManager, match: StoredMatch, matches: StoredMatch[]) => Promise<Outcome<ResultWrite, MatchEvent>>,
  ): Promise<StoredMatch> {
    return this.locked(id, async (em, t) => {
      // One after the other: both run on the transaction's one connection.
      const matches = await this.deps.repo.matches(id, em);
      const entries = await this.deps.repo.entries([id], em);
      const match = matches.find((m) => m.id === matchId);
      if (match === undefined) throw notFound('match not found');
      // An admin may still correct a completed tournament; it reopens if the correction leaves something to play.
      if (t.status !== 'running' && !(correction && t.status === 'completed')) throw conflict('the tournament is not running');
      const written = unwrap(await decide(em, match, matches));
      await commitBracketIn(em, this.deps.repo, t, matches, written.matches, entries, this.deps);
      return { ...(written.match as StoredMatch), id: match.id, lobbyCode: match.lobbyCode };
    });
  }
}

