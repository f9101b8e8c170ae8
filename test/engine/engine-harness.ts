import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BanRepository } from '../../src/db/ban-repository';
import { LobbyRecordRepository } from '../../src/db/lobby-record-repository';
import { MatchRepository } from '../../src/db/match-repository';
import type { UserRecord } from '../../src/db/user-record';
import { UsersRepository } from '../../src/db/users-repository';
import type { Caller } from '../../src/identity/caller';
import type { LiveStore } from '../../src/live/live-store';
import { MemoryLiveStore } from '../../src/live/memory-live-store';
import { connectRedisLiveStore } from '../../src/live/redis-live-store';
import { LOBBY_FEED_CHANNEL, startLobbyFeed, type LobbyBroadcast } from '../../src/engine/lobby-broadcast';
import { LobbyEngine, type LobbyEngineDeps } from '../../src/engine/lobby-engine';
import { PartyEngine } from '../../src/engine/party-engine';
import { unrecordedLobbiesIn } from '../../src/engine/unrecorded-lobbies';
import type { LobbyChatMessage, LobbyDetail, LobbySummary } from '../../schema/lobby';
import { makeUsers } from '../db/fixtures';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { deleteKeysWithPrefix } from '../support/redis-prefix';

/*
 * The engine tests run against both live stores: the in-process one always, Redis when it answers
 * (REDIS_URL, or a local one), and must run where CI or REDIS_URL says so. Each file shares one
 * test database (PGlite, or a fresh database on DATABASE_URL).
 */

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisRequired = Boolean(process.env.CI) || process.env.REDIS_URL !== undefined;
const runPrefix = `test:engine:${randomUUID()}:`;

async function redisProblem(): Promise<string | undefined> {
  try {
    const probe = await connectRedisLiveStore({ url: redisUrl, prefix: runPrefix, connectTimeoutMs: 1_000 });
    await probe.close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const redisUnreachable = await redisProblem();

/** A clock that only moves when told to, starting at a fixed moment. */
export class FakeClock {
  constructor(public now = Date.parse('2026-03-01T12:00:00Z')) {}
  readonly read = (): number => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

export class RecordingBroadcast implements LobbyBroadcast {
  readonly updates: { code: string; version: number; lobby: LobbyDetail }[] = [];
  readonly chats: { code: string; message: LobbyChatMessage }[] = [];
  readonly lists: LobbySummary[][] = [];
  lobbyUpdated(code: string, version: number, lobby: LobbyDetail): void {
    this.updates.push({ code, version, lobby });
  }
  lobbyChat(code: string, message: LobbyChatMessage): void {
    this.chats.push({ code, message });
  }
  lobbiesChanged(lobbies: LobbySummary[]): void {
    this.lists.push(lobbies);
  }
}

export interface EngineWorld {
  live: LiveStore;
  database: TestDatabase;
  clock: FakeClock;
  broadcast: RecordingBroadcast;
  invalidated: string[];
  engine: LobbyEngine;
  parties: PartyEngine;
  /** Resolves once everything published on the lobby feed so far has reached `broadcast`. */
  delivered(): Promise<void>;
  /** Another engine on the same stores: a second server instance. */
  peer(overrides?: Partial<LobbyEngineDeps>): LobbyEngine;
  makeEngine(overrides?: Partial<LobbyEngineDeps>): LobbyEngine;
  users(count: number, elo?: (i: number) => number): Promise<UserRecord[]>;
  bans: BanRepository;
}

export const callerOf = (user: UserRecord): Caller => ({ kind: 'session', user, sessionId: `s${user.id}` });

const silentLogger = { error: () => undefined, warn: () => undefined };

/** Declares `body` once per available live store, each with a fresh world per test. */
export function describeEngine(name: string, body: (world: () => EngineWorld) => void): void {
  const kinds: Array<'memory' | 'redis'> = ['memory', ...(redisUnreachable ? [] : (['redis'] as const))];
  if (redisUnreachable && redisRequired) {
    it(`${name}: Redis is required here but unreachable`, () => expect.fail(String(redisUnreachable)));
  }
  for (const kind of kinds) {
    describe(`${name} (${kind} live store)`, () => {
      let database: TestDatabase;
      let current: EngineWorld | undefined;
      const stores: LiveStore[] = [];
      beforeAll(async () => {
        database = await createTestDatabase();
      });
      afterAll(async () => {
        await database?.drop();
      });
      beforeEach(async () => {
        const live: LiveStore =
          kind === 'memory' ? new MemoryLiveStore() : await connectRedisLiveStore({ url: redisUrl, prefix: `${runPrefix}${randomUUID()}:` });
        stores.push(live);
        const clock = new FakeClock();
        const broadcast = new RecordingBroadcast();
        await startLobbyFeed(live, broadcast);
        const invalidated: string[] = [];
        const db = database.db;
        const bans = new BanRepository(db);
        const makeEngine = (overrides: Partial<LobbyEngineDeps> = {}) =>
          new LobbyEngine({
            live,
            records: new LobbyRecordRepository(db),
            matches: new MatchRepository(db),
            bans,
            unrecorded: unrecordedLobbiesIn(db),
            clock: clock.read,
            logger: silentLogger,
            invalidate: (topic) => invalidated.push(topic),
            ...overrides,
          });
        current = {
          live,
          database,
          clock,
          broadcast,
          delivered: () => feedDelivered(live),
          invalidated,
          engine: makeEngine(),
          parties: new PartyEngine({ live, users: new UsersRepository(db), bans, clock: clock.read }),
          peer: makeEngine,
          makeEngine,
          users: (count, elo = () => 1000) => makeUsers(db, Array.from({ length: count }, (_, i) => ({ elo: elo(i) }))),
          bans,
        };
      });
      afterEach(async () => {
        await current?.engine.idle();
        for (const store of stores.splice(0)) {
          if (store.kind === 'redis') await deleteRunKeys();
          await store.close();
        }
      });
      body(() => current!);
    });
  }
}

/** The feed keeps publish order: once a marker published now is back, all before it are delivered. */
async function feedDelivered(live: LiveStore): Promise<void> {
  const marker = `marker ${randomUUID()}`;
  let arrived!: () => void;
  const back = new Promise<void>((resolve) => (arrived = resolve));
  const unsubscribe = await live.subscribe(LOBBY_FEED_CHANNEL, (message) => message === marker && arrived());
  try {
    await live.publish(LOBBY_FEED_CHANNEL, marker);
    await back;
  } finally {
    await unsubscribe();
  }
}

function deleteRunKeys(): Promise<void> {
  return deleteKeysWithPrefix(redisUrl!, runPrefix);
}
