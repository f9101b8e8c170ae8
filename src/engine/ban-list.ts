import { randomUUID } from 'node:crypto';
import { domainBan, type BanRecord } from '../db/ban-repository';
import { isBanned } from '../domain/access/ban';
import { LastKnown } from '../db/last-known';
import type { LiveStore } from '../live/live-store';
import { BAN_LIST_GENERATION } from './live-keys';
import { retryOnConflict } from './cas-retry';
import type { KnownBan } from './engine-ports';

export interface BanListDeps {
  live: LiveStore;
  /** Every ban not yet expired or lifted at `now`, newest first (BanRepository.current). */
  loadCurrent: (now: Date) => Promise<BanRecord[]>;
  clock: () => number;
  /** The longest a list serves before it is read again whatever the generation says (default MAX_AGE_MS). */
  maxAgeMs?: number;
}

/** A ban written behind the API's back (an operator's SQL) holds within this; the API's own at once. */
export const MAX_AGE_MS = 500;

/** The generation document as read: its value names the list's generation, its version is what a guarded write expects. */
interface Generation {
  value: string | null;
  version: number;
}

interface Loaded {
  generation: string | null;
  /** The generation document's version when this list was found current (0: absent). */
  version: number;
  loadedAt: number;
  byUser: Map<number, BanRecord[]>;
}

/**
 * The bans of this instance, in memory: every chat message, join, lobby create and party create
 * asks whether its user is banned, and a Postgres query each cost more server time than the rest
 * of a chat message (measured with `npm run bench -- lobby-chat`: 0.40 ms of server CPU a
 * message with the query, 0.26 ms without it).
 *
 * A ban must hold at once on every instance (the admin issue), so the list is only served while
 * it is current: every ban the API gives or lifts bumps a generation in the live store before
 * the API answers (`changed`), and every check reads that generation (one small read, made beside
 * the command's own) and reloads the list when it moved; or, for chat, `knownBan` answers without
 * the read and the command's write is guarded on the generation instead (KnownBan). A ban an
 * operator writes by SQL moves no generation; the list's age bound (MAX_AGE_MS) brings it in, as
 * it does a ban whose generation write was lost (Redis failing between the commit and the write).
 * Expiry is decided per check by the clock, so a ban that runs out ends by itself. While Postgres
 * cannot answer, the last list read serves (LastKnown, as for the user row).
 */
export class BanList {
  readonly #deps: BanListDeps;
  readonly #maxAgeMs: number;
  readonly #lastKnown: LastKnown<'bans', BanRecord[]>;
  #loaded: Loaded | null = null;
  #loading: { generation: Generation; promise: Promise<Loaded> } | null = null;

  constructor(deps: BanListDeps) {
    this.#deps = deps;
    this.#maxAgeMs = deps.maxAgeMs ?? MAX_AGE_MS;
    this.#lastKnown = new LastKnown(deps.clock);
  }

  /** The newest ban of the user in force at `now`, or null (the port of BanRepository.activeBan). */
  async activeBan(userId: number, now: Date): Promise<BanRecord | null> {
    const generation = await this.#generation();
    const loaded = this.#fresh(generation.value) ?? (await this.#load(generation));
    return activeIn(loaded, userId, now);
  }

  /**
   * The answer of the list as last found current, without reading the generation, while the list
   * is within its age bound; with the generation's version to guard a write on, so the write
   * happens only if no ban was given or lifted through the API since (KnownBan). Null when there is
   * no such list: the caller asks `activeBan`.
   */
  knownBan(userId: number, now: Date): KnownBan | null {
    const loaded = this.#fresh(this.#loaded?.generation ?? null);
    if (!loaded) return null;
    return { banned: activeIn(loaded, userId, now) !== null, guard: { key: BAN_LIST_GENERATION, expectedVersion: loaded.version } };
  }

  /** Call after a ban is given or lifted, before answering: every instance's next check reloads. */
  async changed(): Promise<void> {
    await retryOnConflict(this.#deps.live, async () => {
      const current = await this.#deps.live.get(BAN_LIST_GENERATION);
      return { writes: [{ key: BAN_LIST_GENERATION, expectedVersion: current?.version ?? 0, value: randomUUID() }], value: undefined };
    });
  }

  async #generation(): Promise<Generation> {
    const doc = await this.#deps.live.get<string>(BAN_LIST_GENERATION);
    return { value: typeof doc?.value === 'string' ? doc.value : null, version: doc?.version ?? 0 };
  }

  #fresh(generation: string | null): Loaded | null {
    const loaded = this.#loaded;
    const age = loaded ? this.#deps.clock() - loaded.loadedAt : 0;
    // A clock that went back (a test skipping time, an NTP step) makes the age meaningless: read again.
    if (!loaded || loaded.generation !== generation || age < 0 || age >= this.#maxAgeMs) return null;
    return loaded;
  }

  /** One load at a time per generation: the checks that find the list stale meanwhile share it. */
  #load(generation: Generation): Promise<Loaded> {
    if (this.#loading?.generation.value === generation.value) return this.#loading.promise;
    const loadedAt = this.#deps.clock();
    const promise = this.#lastKnown
      .read('bans', () => this.#deps.loadCurrent(new Date(loadedAt)))
      .then((bans) => {
        const loaded = { generation: generation.value, version: generation.version, loadedAt, byUser: byUser(bans) };
        // A newer load may have finished first; keep the newest.
        if (!this.#loaded || this.#loaded.loadedAt <= loadedAt) this.#loaded = loaded;
        return loaded;
      })
      .finally(() => {
        if (this.#loading?.promise === promise) this.#loading = null;
      });
    this.#loading = { generation, promise };
    return promise;
  }
}

function activeIn(loaded: Loaded, userId: number, now: Date): BanRecord | null {
  const at = now.getTime();
  return loaded.byUser.get(userId)?.find((ban) => isBanned(domainBan(ban), at)) ?? null;
}

function byUser(bans: BanRecord[]): Map<number, BanRecord[]> {
  const map = new Map<number, BanRecord[]>();
  // Newest first, as loaded: `find` then answers the newest ban in force.
  for (const ban of bans) {
    const ofUser = map.get(ban.userId);
    if (ofUser) ofUser.push(ban);
    else map.set(ban.userId, [ban]);
  }
  return map;
}
