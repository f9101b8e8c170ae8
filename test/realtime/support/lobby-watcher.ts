import type { LobbyDetail } from '../../../schema/lobby';
import type { LobbyPatch, LobbyUpdate, SubscribeAck } from '../../../schema/realtime';
import { applyJsonPatch } from '../../../realtime/json-patch';
import type { LeagueClient } from './socket-client';

/**
 * A client of one lobby as the protocol asks clients to be (realtime/public/app.js does the same):
 * a snapshot from the subscribe ack, then each `lobby:update` or `lobby:patch` applied on top when
 * it follows on from the version held; anything else is a gap, answered by subscribing again.
 * Records what a test asserts: events before the first ack, every gap, and every version delivered
 * twice (other than the server's marked re-announcement).
 */
export class LobbyWatcher {
  lobby: LobbyDetail | null = null;
  /** Lobby events that arrived before the first snapshot. */
  early = 0;
  /** Each event that did not follow on from the version held: [held, base it came for, its version]. */
  readonly gaps: Array<[number, number, number]> = [];
  /** Versions delivered again although held, without the server's re-announcement mark: each a failure. */
  readonly duplicates: number[] = [];
  /** Versions the server re-announced (backpressure-watch.ts) that the watcher held: legitimate. */
  reannounced = 0;
  resyncs = 0;
  deliveries = 0;
  #syncing = true;
  #waiters: Array<() => void> = [];

  private constructor(
    private readonly socket: LeagueClient,
    private readonly code: string,
    private readonly patches: boolean,
  ) {
    socket.on('lobby:update', (update: LobbyUpdate) => this.#receive(update, update.version - 1, () => update.lobby));
    socket.on('lobby:patch', (patch: LobbyPatch) => this.#receive(patch, patch.base_version, (lobby) => applyJsonPatch(lobby, patch.ops)));
  }

  /** Subscribes `socket` to `code`; resolves with the watcher once the snapshot is in. */
  static async start(socket: LeagueClient, code: string, patches: boolean): Promise<LobbyWatcher> {
    const watcher = new LobbyWatcher(socket, code, patches);
    await watcher.#subscribe();
    return watcher;
  }

  /** Resolves once the watcher holds `version` or later. */
  reached(version: number, waitMs = 30_000): Promise<void> {
    if ((this.lobby?.version ?? -1) >= version) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`still at v${this.lobby?.version} after ${waitMs} ms, waiting for v${version}`)), waitMs);
      const check = () => {
        if ((this.lobby?.version ?? -1) < version) return void this.#waiters.push(check);
        clearTimeout(timer);
        resolve();
      };
      this.#waiters.push(check);
    });
  }

  #subscribe(): Promise<void> {
    this.#syncing = true;
    return new Promise((resolve, reject) => {
      this.socket.emit('lobby:subscribe', { code: this.code, patches: this.patches }, (answer: SubscribeAck) => {
        if ('error' in answer) return reject(new Error(`subscribe answered ${answer.status}: ${answer.error}`));
        this.lobby = answer.lobby;
        this.#syncing = false;
        this.#wake();
        resolve();
      });
    });
  }

  #receive(event: { code: string; version: number }, base: number, next: (lobby: LobbyDetail) => LobbyDetail): void {
    if (event.code !== this.code) return;
    if (this.lobby === null) return void (this.early += 1);
    // Sent before the server saw the subscribe again: the coming snapshot supersedes it.
    if (this.#syncing) return;
    this.deliveries += 1;
    if (event.version === this.lobby.version) {
      // The version held again: legitimate only as the server's re-announcement after it saw this
      // socket fall behind (marked so); any other is a delivery of one version twice.
      if ('reannounced' in event && event.reannounced === true) this.reannounced += 1;
      else this.duplicates.push(event.version);
      return;
    }
    const follows = 'lobby' in event ? event.version === this.lobby.version + 1 : base === this.lobby.version;
    if (!follows) {
      this.gaps.push([this.lobby.version, base, event.version]);
      this.resyncs += 1;
      void this.#subscribe();
      return;
    }
    this.lobby = next(this.lobby);
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) waiter();
  }
}
