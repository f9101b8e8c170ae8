import type { BracketView, TournamentView } from '../../schema/tournaments';
import type { EntityManager } from '../db/orm';
import type { TournamentRepository } from '../db/tournament-repository';
import { notFound } from '../domain/domain-error';
import { computeStandings, type TournamentStatus } from '../domain/tournaments';
import { seededTeams } from './bracket-writes';
import { toBracketView, toStandingView, toTournamentView } from './tournament-views';

/** What the public reads and the realtime feed show of tournaments. */
export class TournamentReads {
  constructor(
    private readonly repo: TournamentRepository,
    private readonly clock: () => number,
  ) {}

  async list(status: TournamentStatus | undefined, page: number, limit: number) {
    const now = new Date(this.clock());
    const filter =
      status === 'check_in' ? { stored: 'signups', checkIn: 'only' as const, now }
      : status === 'signups' ? { stored: 'signups', checkIn: 'exclude' as const, now }
      : { stored: status ?? null, checkIn: null, now };
    const { rows, total } = await this.repo.list(filter, page, limit);
    const entries = await this.repo.entries(rows.map((t) => t.id));
    return { tournaments: rows.map((t) => toTournamentView(t, entries, now)), total, page, limit };
  }

  async tournament(id: number, em: EntityManager = this.repo.em()): Promise<TournamentView> {
    const t = await this.repo.find(id, em);
    if (t === null) throw notFound('tournament not found');
    return toTournamentView(t, await this.repo.entries([id], em), new Date(this.clock()));
  }

  async bracket(id: number, em: EntityManager = this.repo.em()): Promise<BracketView> {
    if ((await this.repo.find(id, em)) === null) throw notFound('tournament not found');
    return toBracketView(await this.repo.matches(id, em));
  }

  /** The tournament and its bracket as one consistent snapshot (one read transaction). */
  snapshot(id: number): Promise<{ tournament: TournamentView; bracket: BracketView }> {
    return this.repo.em().transactional(async (em) => {
      const tournament = await this.tournament(id, em);
      return { tournament, bracket: toBracketView(await this.repo.matches(id, em)) };
    }, { isolationLevel: 'repeatable read' as never });
  }

  async standings(id: number) {
    const t = await this.repo.find(id);
    if (t === null) throw notFound('tournament not found');
    const entries = await this.repo.entries([id]);
    const names = new Map(entries.map((e) => [e.team.id, e.team.name]));
    const rows = computeStandings(t.kind, seededTeams(entries), await this.repo.matches(id));
    return rows.map((row) => toStandingView(row, names));
  }
}
