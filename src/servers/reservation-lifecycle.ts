import type { Logger } from 'pino';
import { TIER_LIMITS } from '../domain/servers/reservation-request';
import type { ReservationStatus } from '../domain/servers/reservation-status';
import type { CloudProvider } from './cloud-provider';
import type { GameServerLink } from './game-server-link';
import type { ReservationRecord } from './reservation-record';
import type { ReservationRepository } from './reservation-repository';

export const LIFECYCLE_QUEUE = 'servers:lifecycle';

export interface LifecycleTiming {
  /** Bound on each call to the cloud host. */
  providerTimeoutMs: number;
  /** Create attempts before `failed`; the wait doubles from `retryBaseMs` between them. */
  provisionAttempts: number;
  retryBaseMs: number;
  /** However the host behaves, provisioning ends (active or failed) this long after it began. */
  provisionDeadlineMs: number;
  /** How often a provisioning server is asked whether it answers yet. */
  startPollMs: number;
  /** How often an active server is checked for players. */
  activePollMs: number;
  warnBeforeEndMs: number;
  queryTimeoutMs: number;
  rconTimeoutMs: number;
}

export const DEFAULT_TIMING: LifecycleTiming = {
  providerTimeoutMs: 15_000,
  provisionAttempts: 4,
  retryBaseMs: 5_000,
  provisionDeadlineMs: 10 * 60_000,
  startPollMs: 1_000,
  activePollMs: 60_000,
  warnBeforeEndMs: 10 * 60_000,
  queryTimeoutMs: 1_500,
  rconTimeoutMs: 3_000,
};

export interface LifecycleDeps {
  repo: ReservationRepository;
  provider: CloudProvider;
  link: GameServerLink;
  clock: () => number;
  /** The durable schedule: run `step(id)` at `at` (one pending wake per reservation). */
  wake(id: number, at: number): Promise<void>;
  logger: Pick<Logger, 'warn' | 'info'>;
  timing?: Partial<LifecycleTiming>;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    work,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * What happens to a reservation over time, one step per wake-up of the durable schedule: each
 * step reads the row, does at most one round of remote work, moves the status by compare-and-set
 * (so a DELETE racing a step wins cleanly) and queues the next wake-up. A step that dies half-way
 * is simply run again: every step is safe to repeat.
 */
export class ReservationLifecycle {
  readonly timing: LifecycleTiming;

  constructor(private readonly deps: LifecycleDeps) {
    this.timing = { ...DEFAULT_TIMING, ...deps.timing };
  }

  async step(id: number): Promise<void> {
    const record = await this.deps.repo.byId(id);
    if (!record) return;
    const now = this.deps.clock();
    switch (record.status) {
      case 'pending':
        if (now < record.startsAt) return this.deps.wake(id, record.startsAt);
        if (await this.deps.repo.transition(id, ['pending'], 'provisioning', 'start time reached', now, { provisioningSince: now })) {
          return this.step(id);
        }
        return;
      case 'provisioning':
        return this.provision(record, now);
      case 'active':
        return this.watch(record, now);
      case 'ending':
        return this.finishEnding(record);
      default:
        return;
    }
  }

  /** Ends a reservation now, from any unfinished status: DELETE, time up, idle. */
  async end(record: ReservationRecord, reason: string): Promise<void> {
    const from: ReservationStatus[] = ['pending', 'provisioning', 'active'];
    const ending = await this.deps.repo.transition(record.id, from, 'ending', reason, this.deps.clock());
    if (ending) await this.finishEnding(ending);
  }

  private async finishEnding(record: ReservationRecord): Promise<void> {
    if (record.providerRef) {
      try {
        await withTimeout(this.deps.provider.destroy(record.providerRef), this.timing.providerTimeoutMs, 'the cloud host');
      } catch (error) {
        // Stays `ending`: the schedule tries again, so a server is never left running unbilled.
        this.deps.logger.warn({ err: error, reservation: record.id }, 'destroying a server failed; retrying');
        return this.deps.wake(record.id, this.deps.clock() + this.timing.retryBaseMs);
      }
    }
    const now = this.deps.clock();
    await this.deps.repo.transition(record.id, ['ending'], 'ended', 'server destroyed', now, { endedAt: now });
  }

  private async provision(record: ReservationRecord, now: number): Promise<void> {
    const t = this.timing;
    if (now - (record.provisioningSince ?? record.startsAt) >= t.provisionDeadlineMs) {
      return this.fail(record, 'the server did not come up in time');
    }
    if (!record.providerRef) return this.createServer(record, now);
    let hosted;
    try {
      hosted = await withTimeout(this.deps.provider.status(record.providerRef), t.providerTimeoutMs, 'the cloud host');
    } catch (error) {
      this.deps.logger.warn({ err: error, reservation: record.id }, 'server status failed');
      return this.deps.wake(record.id, now + t.startPollMs);
    }
    if (hosted.state === 'gone') {
      // The host lost it (or never made it): count it as a failed attempt and create again.
      return this.retryCreate(record, now, 'the cloud host lost the server', { providerRef: null });
    }
    if (hosted.state === 'running' && hosted.connectAddress && hosted.rconAddress) {
      const info = await this.deps.link.info(hosted.connectAddress, t.queryTimeoutMs);
      if (info) {
        const active = await this.deps.repo.transition(record.id, ['provisioning'], 'active', 'answers A2S', now, {
          connectAddress: hosted.connectAddress, rconAddress: hosted.rconAddress, lastPlayersAt: now,
        });
        if (active) return this.deps.wake(record.id, this.nextActiveWake(active, now));
        return;
      }
    }
    return this.deps.wake(record.id, now + t.startPollMs);
  }

  private async createServer(record: ReservationRecord, now: number): Promise<void> {
    let ref: string;
    try {
      ({ ref } = await withTimeout(
        this.deps.provider.create({
          reservationId: record.id, region: record.region, map: record.map, configPreset: record.configPreset,
          rconPassword: record.rconPassword, serverPassword: record.serverPassword,
        }),
        this.timing.providerTimeoutMs,
        'the cloud host',
      ));
    } catch (error) {
      this.deps.logger.warn({ err: error, reservation: record.id, attempt: record.provisionAttempts + 1 }, 'creating a server failed');
      return this.retryCreate(record, now, (error as Error).message, {});
    }
    if (!(await this.deps.repo.claimProviderRef(record.id, ref))) {
      // Ended (deleted) while the host was creating it, or a step elsewhere created one first:
      // nobody will ever use this server.
      await this.deps.provider.destroy(ref).catch(() => undefined);
      return;
    }
    // Straight on to the first status check: a server that is up at once goes active in this step.
    return this.step(record.id);
  }

  private async retryCreate(record: ReservationRecord, now: number, reason: string, patch: { providerRef?: null }): Promise<void> {
    const attempts = record.provisionAttempts + 1;
    if (attempts >= this.timing.provisionAttempts) return this.fail(record, `gave up after ${attempts} attempts: ${reason}`);
    const kept = await this.deps.repo.patch(record.id, 'provisioning', { ...patch, provisionAttempts: attempts });
    if (kept) return this.deps.wake(record.id, now + this.timing.retryBaseMs * 2 ** (attempts - 1));
  }

  private async fail(record: ReservationRecord, reason: string): Promise<void> {
    const now = this.deps.clock();
    const failed = await this.deps.repo.transition(record.id, ['provisioning'], 'failed', reason, now, { endedAt: now });
    if (failed && record.providerRef) await this.deps.provider.destroy(record.providerRef).catch(() => undefined);
  }

  private async watch(record: ReservationRecord, now: number): Promise<void> {
    if (now >= record.endsAt) return this.end(record, 'reserved time is up');
    const t = this.timing;
    let current = record;
    const info = record.connectAddress ? await this.deps.link.info(record.connectAddress, t.queryTimeoutMs) : null;
    if (info && info.players > 0) current = (await this.deps.repo.patch(record.id, 'active', { lastPlayersAt: now })) ?? current;
    const idleMs = TIER_LIMITS[record.tier].idleMinutes * 60_000;
    if (now - (current.lastPlayersAt ?? current.startsAt) >= idleMs) {
      return this.end(current, `no players for ${TIER_LIMITS[record.tier].idleMinutes} minutes`);
    }
    if (current.warnedAt === null && now >= current.endsAt - t.warnBeforeEndMs) {
      const minutes = Math.max(1, Math.round((current.endsAt - now) / 60_000));
      try {
        await this.deps.link.rcon(current.rconAddress!, current.rconPassword, [`say "This server reservation ends in ${minutes} minutes."`], t.rconTimeoutMs);
        current = (await this.deps.repo.patch(record.id, 'active', { warnedAt: now })) ?? current;
      } catch (error) {
        this.deps.logger.warn({ err: error, reservation: record.id }, 'end-of-reservation warning not delivered');
      }
    }
    return this.deps.wake(record.id, this.nextActiveWake(current, now));
  }

  private nextActiveWake(record: ReservationRecord, now: number): number {
    const candidates = [record.endsAt, now + this.timing.activePollMs];
    const warnAt = record.endsAt - this.timing.warnBeforeEndMs;
    if (record.warnedAt === null && warnAt > now) candidates.push(warnAt);
    return Math.min(...candidates);
  }
}
