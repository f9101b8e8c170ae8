import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LobbyDetail } from '../../schema/lobby';
import type { LoggedIn } from '../support/login';
import { describeOnTwoInstances, startTwoInstances, type Instance, type TwoInstances } from '../support/two-instances';
import { createLobby, lobbyCommand, rest } from './support/rest-client';
import { closeAllClients, connect } from './support/socket-client';
import { LobbyWatcher } from './support/lobby-watcher';
import { freshUser } from './support/users';

/*
 * Issue 21 §4 (subscribe atomic with respect to updates) and issue 28 §1 (patches): members vote
 * as fast as the two instances answer, each vote on the other instance than the last, while
 * SUBSCRIBERS clients subscribe, half on A and half on B, half asking for patches. Each must get
 * its snapshot first, then exactly the next versions in order, none twice (a version it holds
 * counts only as the server's marked re-announcement), and end holding the very lobby a fresh
 * snapshot shows.
 */
const VOTERS = 8;
const SUBSCRIBERS = 120;
const BATCH = 10;

describeOnTwoInstances('subscribing while a lobby changes fast, on two instances', () => {
  let instances: TwoInstances;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    instances = await startTwoInstances({ COMMAND_RATE_LIMIT: '9999999', SOCKETS_PER_ADDRESS: '9999999' });
    [a, b] = instances.servers;
  }, 120_000);

  afterAll(async () => {
    closeAllClients();
    await instances?.close();
  });

  /** A 6v6 lobby created on A with VOTERS members; `vote` flips each member's map vote, alternating `servers`, while `more()` says so. */
  async function votingLobby() {
    const voters: LoggedIn[] = [];
    for (let i = 0; i < VOTERS; i++) voters.push(await freshUser(a));
    const created = await createLobby(a.url, voters[0].cookie, { format: '6v6' });
    for (const voter of voters.slice(1)) expect((await lobbyCommand(a.url, created.code, 'join', voter.cookie)).status).toBe(200);
    let votes = 0;
    const vote = (servers: Instance[], more: () => boolean) =>
      Promise.all(
        voters.map(async (voter, v) => {
          for (let flip = v; more(); flip++) {
            votes += 1;
            const answer = await lobbyCommand(servers[flip % servers.length].url, created.code, 'vote-map', voter.cookie, { map: created.map_pool[flip % 2] });
            if (answer.status !== 200) throw new Error(`vote-map answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          }
        }),
      );
    const final = async () => (await rest<LobbyDetail>(a.url, 'GET', `/api/lobbies/${created.code}`)).body;
    return { code: created.code, vote, votes: () => votes, final };
  }

  it(`gives each of ${SUBSCRIBERS} subscribers its snapshot, then every later version once and in order, snapshot or patches, on either instance`, async () => {
    const lobby = await votingLobby();
    let voting = true;
    const votes = lobby.vote([a, b], () => voting);

    const watchers: LobbyWatcher[] = [];
    for (let i = 0; i < SUBSCRIBERS; i += BATCH) {
      const batch = Array.from({ length: BATCH }, async (_, j) => {
        const n = i + j;
        return LobbyWatcher.start(await connect([a, b][n % 2].url), lobby.code, n % 4 >= 2);
      });
      watchers.push(...(await Promise.all(batch)));
    }
    voting = false;
    await votes;

    const final = await lobby.final();
    await Promise.all(watchers.map((watcher) => watcher.reached(final.version)));
    const fresh = await LobbyWatcher.start(await connect(b.url), lobby.code, false);

    expect(lobby.votes()).toBeGreaterThan(SUBSCRIBERS);
    expect(watchers.map((w) => ({ early: w.early, gaps: w.gaps, duplicates: w.duplicates }))).toEqual(watchers.map(() => ({ early: 0, gaps: [], duplicates: [] })));
    for (const watcher of watchers) expect(watcher.lobby).toEqual(fresh.lobby);
  }, 180_000);
});
