import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AckError } from '../../schema/realtime';
import type { TeamView } from '../../schema/teams';
import { poll } from '../support/poll';
import { describeOnTwoInstances, startTwoInstances, type TwoInstances } from '../support/two-instances';
import { rest } from './support/rest-client';
import { closeAllClients, connect, type LeagueClient } from './support/socket-client';
import { freshUser } from './support/users';

/*
 * Issue 21 §4 for the area feeds (realtime/room-feed.ts): a team's leader edits it as fast as the
 * two instances answer, alternating them, while SUBSCRIBERS clients subscribe to the team, half on
 * A and half on B. Each must get its snapshot first, then only versions above the one it holds,
 * in order, and end holding what a read answers.
 */
const SUBSCRIBERS = 60;
const BATCH = 10;

/** One `team:subscribe` client: what arrived before its ack, and every update not above what it held. */
class TeamWatcher {
  team: TeamView | null = null;
  snapshotVersion = 0;
  early = 0;
  readonly stale: Array<[held: number, got: number]> = [];

  private constructor(private readonly socket: LeagueClient) {
    (socket as unknown as { on(e: string, f: (u: { version: number; team: TeamView }) => void): void }).on('team:update', (update) => {
      if (this.team === null) return void (this.early += 1);
      if (update.version <= this.team.version) return void this.stale.push([this.team.version, update.version]);
      this.team = update.team;
    });
  }

  /** Takes the snapshot in the ack's callback itself: an update in the same read of the socket is handled right after it. */
  static start(socket: LeagueClient, id: number): Promise<TeamWatcher> {
    const watcher = new TeamWatcher(socket);
    return new Promise((resolve, reject) => {
      (socket as unknown as { emit(e: string, p: unknown, ack: (a: { team: TeamView } | AckError) => void): void }).emit('team:subscribe', { id }, (ack) => {
        if ('error' in ack) return reject(new Error(`team:subscribe answered ${ack.status}: ${ack.error}`));
        watcher.team = ack.team;
        watcher.snapshotVersion = ack.team.version;
        resolve(watcher);
      });
    });
  }
}

describeOnTwoInstances('subscribing to a team while it changes fast, on two instances', () => {
  let instances: TwoInstances;

  beforeAll(async () => {
    instances = await startTwoInstances({ SOCKETS_PER_ADDRESS: '9999999' });
  }, 120_000);

  afterAll(async () => {
    closeAllClients();
    await instances?.close();
  });

  it(`gives each of ${SUBSCRIBERS} team subscribers its snapshot, then only later versions in order, on either instance`, async () => {
    const [a, b] = instances.servers;
    const leader = await freshUser(a);
    const created = await rest<TeamView>(a.url, 'POST', '/api/teams', { cookie: leader.cookie, body: { name: 'Feed Order', tag: 'FO' } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    let editing = true;
    let edits = 0;
    const edit = (async () => {
      for (let n = 0; editing; n++) {
        const answer = await rest([a, b][n % 2].url, 'PATCH', `/api/teams/${id}`, { cookie: leader.cookie, body: { description: `edit ${n}` } });
        if (answer.status !== 200) throw new Error(`team edit answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        edits += 1;
      }
    })();

    const watchers: TeamWatcher[] = [];
    for (let i = 0; i < SUBSCRIBERS; i += BATCH) {
      // Each batch subscribes after at least one more edit landed, so batches meet a changing team
      // however the machine schedules the editor against the subscribers.
      const before = edits;
      await poll(() => edits, (now) => now > before, { what: 'an edit between subscription batches' });
      watchers.push(...(await Promise.all(Array.from({ length: BATCH }, async (_, j) => TeamWatcher.start(await connect([a, b][(i + j) % 2].url), id)))));
    }
    editing = false;
    await edit;

    const final = (await rest<TeamView>(a.url, 'GET', `/api/teams/${id}`)).body;
    await poll(() => watchers.filter((w) => w.team!.version < final.version).length, (behind) => behind === 0, { what: 'watchers at the final version' });
    expect(new Set(watchers.map((w) => w.snapshotVersion)).size).toBeGreaterThanOrEqual(SUBSCRIBERS / BATCH);
    expect(watchers.map((w) => ({ early: w.early, stale: w.stale }))).toEqual(watchers.map(() => ({ early: 0, stale: [] })));
    for (const watcher of watchers) expect(watcher.team).toEqual(final);
  }, 180_000);
});
