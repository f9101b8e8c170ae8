import type { ServerCreateBody, ServerScheduleBody } from '../../schema/servers';
import { conflict, forbidden, invalid, notFound } from '../domain/domain-error';
import { isFinished } from '../domain/servers/reservation-status';
import { decideReservation } from '../domain/servers/reservation-request';
import type { MapCatalog } from '../maps/map-catalog';
import type { CloudProvider, Region } from './cloud-provider';
import type { ReservationRecord } from './reservation-record';
import type { ReservationRepository } from './reservation-repository';

export interface Requester {
  id: number;
  isAdmin: boolean;
}

export interface ReservationServiceDeps {
  repo: ReservationRepository;
  premium: { activeGrant(userId: number, now: Date): Promise<unknown | null> };
  maps: MapCatalog;
  provider: CloudProvider;
  regionCapacity: number;
  clock: () => number;
  /** Queues the reservation's next lifecycle step at `at` (the durable schedule). */
  wake(id: number, at: number): Promise<void>;
  /** Destroys a reservation's server at once (DELETE); the lifecycle owns how. */
  endNow(record: ReservationRecord, reason: string): Promise<void>;
}

const RECENT_MS = 24 * 60 * 60_000;

/** Reservations as users make, read and end them; what happens over time is the lifecycle's. */
export class ReservationService {
  constructor(private readonly deps: ReservationServiceDeps) {}

  create(owner: Requester, body: ServerCreateBody): Promise<ReservationRecord> {
    return this.book(owner, body, undefined);
  }

  schedule(owner: Requester, body: ServerScheduleBody): Promise<ReservationRecord> {
    return this.book(owner, body, Date.parse(body.starts_at));
  }

  private async book(owner: Requester, body: ServerCreateBody, startsAt: number | undefined): Promise<ReservationRecord> {
    const { repo, clock } = this.deps;
    const now = clock();
    if (!(await this.region(body.region))) throw invalid(`unknown region ${body.region}`);
    if (!(await this.deps.maps.has(body.map))) throw invalid(`map ${body.map} is not one of GET /api/servers/maps`);
    const premiumActive = (await this.deps.premium.activeGrant(owner.id, new Date(now))) !== null;
    const decided = decideReservation(
      { tier: body.tier, durationMinutes: body.duration_minutes, startsAt },
      { premiumActive },
      now,
    );
    if (!decided.ok) throw decided.error;
    const window = decided.state;
    const created = await repo.create(
      {
        ownerId: owner.id, tier: window.tier, status: window.scheduled ? 'pending' : 'provisioning', region: body.region,
        map: body.map, configPreset: body.config_preset, rconPassword: body.rcon_password,
        serverPassword: body.server_password ?? null, startsAt: window.startsAt, endsAt: window.endsAt, now,
      },
      this.deps.regionCapacity,
    );
    if (!created.ok) {
      throw created.refusal === 'free_taken'
        ? conflict('you already have a free reservation; end it first')
        : conflict(`region ${body.region} has no free server for that time`);
    }
    await this.deps.wake(created.record.id, window.startsAt);
    return created.record;
  }

  /** Owner or admin; 404 for an unknown id, 403 for someone else's. */
  async get(viewer: Requester, id: number): Promise<ReservationRecord> {
    const record = await this.deps.repo.byId(id);
    if (!record) throw notFound('reservation not found');
    if (record.ownerId !== viewer.id && !viewer.isAdmin) throw forbidden('not your reservation');
    return record;
  }

  /** DELETE /api/servers/{id}: destroyed at once; 409 when it has already ended. */
  async destroy(viewer: Requester, id: number): Promise<void> {
    const record = await this.get(viewer, id);
    if (isFinished(record.status)) throw conflict(`the reservation has already ${record.status === 'ended' ? 'ended' : record.status === 'failed' ? 'failed' : 'been cancelled'}`);
    await this.deps.endNow(record, viewer.id === record.ownerId ? 'deleted by owner' : `deleted by admin ${viewer.id}`);
  }

  /** DELETE /api/servers/scheduled/{id}: the owner cancels a reservation that has not started. */
  async cancelScheduled(viewer: Requester, id: number): Promise<void> {
    const record = await this.deps.repo.byId(id);
    if (!record || record.status !== 'pending') throw notFound('no pending reservation with that id');
    if (record.ownerId !== viewer.id) throw forbidden('not your reservation');
    const cancelled = await this.deps.repo.transition(id, ['pending'], 'cancelled', 'cancelled by owner', this.deps.clock(), { endedAt: this.deps.clock() });
    if (!cancelled) throw notFound('no pending reservation with that id');
  }

  /** Running and recently finished reservations (a day back). */
  async mine(owner: Requester): Promise<ReservationRecord[]> {
    const since = this.deps.clock() - RECENT_MS;
    return (await this.deps.repo.byOwner(owner.id)).filter((r) => r.status !== 'pending' && (!isFinished(r.status) || (r.endedAt ?? r.createdAt) >= since));
  }

  all(owner: Requester): Promise<ReservationRecord[]> {
    return this.deps.repo.byOwner(owner.id);
  }

  scheduled(owner: Requester): Promise<ReservationRecord[]> {
    return this.deps.repo.byOwner(owner.id, ['pending']);
  }

  /** Every region with how many servers it could still start now. */
  async regions(): Promise<Array<Region & { capacity: number; available: number }>> {
    const [regions, occupied] = await Promise.all([this.deps.provider.regions(), this.deps.repo.occupiedAt(this.deps.clock())]);
    const capacity = this.deps.regionCapacity;
    return regions.map((r) => ({ ...r, capacity, available: Math.max(0, capacity - (occupied.get(r.id) ?? 0)) }));
  }

  private async region(id: string): Promise<Region | undefined> {
    return (await this.deps.provider.regions()).find((r) => r.id === id);
  }
}
