import type { LiveStore, Unsubscribe } from '../live/live-store';

export const TEAMS_CHANNEL = 'teams:changed';

export interface TeamFeedDeps<T> {
  live: Pick<LiveStore, 'publish' | 'subscribe'>;
  /** The team as subscribers see it now, with its version; null when there is none. */
  read(teamId: number): Promise<{ version: number; team: T } | null>;
  /** Sends an update to this instance's subscribers of the team. */
  emit(teamId: number, version: number, team: T): void;
  onError(error: unknown): void;
}

/**
 * Team changes to every instance's subscribers. A committed change publishes only the team's id
 * on the live store's channel; each instance reads the team as it is then and sends it if its
 * version is newer than the last it sent, so updates arrive in version order (a burst may fold
 * into its newest state) whichever instance made the change.
 */
export class TeamFeed<T> {
  readonly #sent = new Map<number, number>();
  #unsubscribe: Unsubscribe | undefined;

  constructor(private readonly deps: TeamFeedDeps<T>) {}

  async start(): Promise<void> {
    this.#unsubscribe = await this.deps.live.subscribe(
      TEAMS_CHANNEL,
      (message) => {
        const teamId = Number(message);
        if (Number.isSafeInteger(teamId)) this.#deliver(teamId).catch(this.deps.onError);
      },
      // Changes announced while the subscription was down are lost: every team sent here is read again.
      () => {
        for (const teamId of [...this.#sent.keys()]) this.#deliver(teamId).catch(this.deps.onError);
      },
    );
  }

  /** After a commit: tell every instance (this one too, through the channel). */
  changed(teamId: number): void {
    this.deps.live.publish(TEAMS_CHANNEL, String(teamId)).catch(this.deps.onError);
  }

  async close(): Promise<void> {
    await this.#unsubscribe?.();
  }

  async #deliver(teamId: number): Promise<void> {
    const current = await this.deps.read(teamId);
    if (!current || current.version <= (this.#sent.get(teamId) ?? 0)) return;
    this.#sent.set(teamId, current.version);
    this.deps.emit(teamId, current.version, current.team);
  }
}
