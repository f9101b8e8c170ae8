import { expect, it, vi } from 'vitest';
import type { LobbyDetail } from '../../schema/lobby';
import { lobbyDetail, type LobbyState } from '../../src/domain/lobby';
import { LOBBY_FEED_CHANNEL, numberedChat, lobbyUpdates, startLobbyFeed, type LobbyFeedListener } from '../../src/engine/lobby-broadcast';
import { MemoryLiveStore } from '../../src/live/memory-live-store';
import { LobbyUpdateRenderer } from '../../src/engine/lobby-update-renderer';
import { gatheringLobby, HOST, newLobby, run, T0 } from '../unit/lobby/lobby-fixtures';

const gathering = (code: string, version: number): LobbyState => ({ ...newLobby(), code, version });
const live = (code: string, version: number): LobbyState => ({ ...gathering(code, version), phase: 'live' });

async function publishUpdates(store: MemoryLiveStore, states: LobbyState[]): Promise<void> {
  for (const message of lobbyUpdates(states.map((after) => ({ before: null, after })), T0)!.messages) await store.publish(LOBBY_FEED_CHANNEL, message);
}

/** Starts the feed on a fresh store; `until` resolves at the first update the listener is handed. */
async function feedTo(listener: Omit<LobbyFeedListener, 'lobbyUpdated'>) {
  const handlerErrors: unknown[] = [];
  const store = new MemoryLiveStore({ onHandlerError: (error) => handlerErrors.push(error) });
  const updates: { code: string; version: number; lobby: LobbyDetail }[] = [];
  let arrived!: () => void;
  const until = new Promise<void>((resolve) => (arrived = resolve));
  await startLobbyFeed(store, {
    ...listener,
    lobbyUpdated: (code, version, lobby) => {
      updates.push({ code, version, lobby });
      arrived();
    },
  });
  return { store, updates, until, handlerErrors };
}

it('hands a listener that names phases only the updates of lobbies in those phases', async () => {
  const feed = await feedTo({ phases: ['live'] });

  await publishUpdates(feed.store, [gathering('AAAA', 2), live('BBBB', 7)]);
  await feed.until;

  expect(feed.updates).toEqual([{ code: 'BBBB', version: 7, lobby: lobbyDetail(live('BBBB', 7), T0) }]);
});

it('hands a listener that names no phases the update of every lobby, parsed', async () => {
  const feed = await feedTo({});

  await publishUpdates(feed.store, [gathering('AAAA', 2)]);
  await feed.until;

  expect(feed.updates).toEqual([{ code: 'AAAA', version: 2, lobby: lobbyDetail(gathering('AAAA', 2), T0) }]);
});

it('never parses a chat message for a listener that does not take chat', async () => {
  const feed = await feedTo({ phases: ['live'] });
  const chat = numberedChat('AAAA', { user: null, message: 'hi', created_at: new Date(T0).toISOString() } as never);

  // A chat payload that is not JSON would throw in the handler if it were parsed.
  await feed.store.publish(LOBBY_FEED_CHANNEL, `${chat.publish!.messages[0].before.split('\n')[0]}\n{not json`);
  await publishUpdates(feed.store, [live('BBBB', 3)]);
  await feed.until;

  expect(feed.updates.map((u) => u.version)).toEqual([3]);
  expect(feed.handlerErrors).toEqual([]);
});

it("hands a transport each update's JSON and version as published, without parsing it", async () => {
  const store = new MemoryLiveStore();
  const events: { code: string; event: string; json: string; version: number }[] = [];
  let arrived!: () => void;
  const until = new Promise<void>((resolve) => (arrived = resolve));
  await startLobbyFeed(store, {
    lobbyEventJson: (code, event, json, version) => {
      events.push({ code, event, json, version });
      if (events.length === 2) arrived();
    },
  });

  await publishUpdates(store, [gathering('AAAA', 4), live('AAAA', 5)]);
  await until;

  expect(events).toEqual([
    { code: 'AAAA', event: 'lobby:update', version: 4, json: JSON.stringify({ code: 'AAAA', version: 4, lobby: lobbyDetail(gathering('AAAA', 4), T0) }) },
    { code: 'AAAA', event: 'lobby:update', version: 5, json: JSON.stringify({ code: 'AAAA', version: 5, lobby: lobbyDetail(live('AAAA', 5), T0) }) },
  ]);
});

it('hands a transport no update of a lobby it does not want, and still assembles it for when it does', async () => {
  const store = new MemoryLiveStore();
  const wanted = new Set<string>();
  const events: { code: string; version: number; json: string }[] = [];
  let arrived!: () => void;
  const until = new Promise<void>((resolve) => (arrived = resolve));
  await startLobbyFeed(store, {
    wantsUpdate: (code) => wanted.has(code),
    lobbyEventJson: (code, _event, json, version) => {
      events.push({ code, version, json });
      arrived();
    },
  });
  const { states, whole, delta, next } = votedTwice();
  const code = states[0].code;

  await store.publish(LOBBY_FEED_CHANNEL, whole);
  await store.publish(LOBBY_FEED_CHANNEL, delta);
  wanted.add(code);
  await store.publish(LOBBY_FEED_CHANNEL, next);
  await until;

  expect(events).toEqual([{ code, version: states[2].version, json: updateOf(states[2]) }]);
});

/** A lobby and its next two versions (votes), as one instance's renderer publishes them: whole, then deltas. */
function votedTwice() {
  const first = gatheringLobby();
  const second = run(first, { type: 'vote-map', map: first.mapPool[1] }, HOST);
  const third = run(second, { type: 'vote-map', map: first.mapPool[0] }, HOST);
  const renderer = new LobbyUpdateRenderer();
  const [whole, delta, next] = lobbyUpdates(
    [{ before: null, after: first }, { before: first, after: second }, { before: second, after: third }],
    T0,
    renderer.body,
  )!.messages;
  return { states: [first, second, third], whole, delta, next };
}

const updateOf = (state: LobbyState) => JSON.stringify({ code: state.code, version: state.version, lobby: lobbyDetail(state, T0) });

/** A transport on a fresh store; `read` answers a lobby the feed asks for again. */
async function transportFeed(read?: (code: string) => Promise<LobbyDetail | null>) {
  const store = new MemoryLiveStore();
  const events: Array<{ event: string; json: string }> = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const started = await startLobbyFeed(
    store,
    {
      lobbyEventJson: (_code, event, json) => {
        events.push({ event, json });
        for (const waiter of waiters) if (events.length >= waiter.count) waiter.resolve();
      },
    },
    { read },
  );
  const received = (count: number) => new Promise<void>((resolve) => (events.length >= count ? resolve() : waiters.push({ count, resolve })));
  return { store, events, received, started };
}

it('assembles each delta into the same JSON as a whole update of that version', async () => {
  const { states, whole, delta, next } = votedTwice();
  const feed = await transportFeed();

  for (const message of [whole, delta, next]) await feed.store.publish(LOBBY_FEED_CHANNEL, message);
  await feed.received(3);

  expect(feed.events.map((e) => e.json)).toEqual(states.map(updateOf));
});

it('carries a vote as a delta of a few fields, not the whole lobby', () => {
  const { whole, delta } = votedTwice();

  expect(delta.length).toBeLessThan(whole.length / 10);
});

it('reads a lobby whose delta it cannot place, and hands on what it read, then what arrived meanwhile, in order', async () => {
  const { states, delta, next } = votedTwice();
  let answer!: (detail: LobbyDetail) => void;
  const asked: string[] = [];
  const feed = await transportFeed((code) => {
    asked.push(code);
    return new Promise((resolve) => (answer = resolve));
  });
  const chat = numberedChat(states[0].code, { user: null, message: 'hi', created_at: new Date(T0).toISOString() } as never);
  const chatMessage = `${chat.publish!.messages[0].before}7${chat.publish!.messages[0].after}`;

  // This instance never saw the whole update: the delta cannot be placed.
  await feed.store.publish(LOBBY_FEED_CHANNEL, delta);
  await feed.store.publish(LOBBY_FEED_CHANNEL, chatMessage);
  await feed.store.publish(LOBBY_FEED_CHANNEL, next);
  await vi.waitFor(() => expect(asked).toEqual([states[0].code]));
  expect(feed.events).toEqual([]);
  answer(lobbyDetail(states[1], T0));
  await feed.received(3);

  expect(feed.events.map((e) => e.event)).toEqual(['lobby:update', 'lobby:chat', 'lobby:update']);
  expect(feed.events[0].json).toBe(updateOf(states[1]));
  expect(feed.events[2].json).toBe(updateOf(states[2]));
});

it('drops a delta that arrived during the read when the read already has its version', async () => {
  const { states, delta, next } = votedTwice();
  let answer!: (detail: LobbyDetail) => void;
  const feed = await transportFeed(() => new Promise((resolve) => (answer = resolve)));

  await feed.store.publish(LOBBY_FEED_CHANNEL, delta);
  await feed.store.publish(LOBBY_FEED_CHANNEL, next);
  await vi.waitFor(() => expect(answer).toBeDefined());
  answer(lobbyDetail(states[2], T0));
  await feed.received(1);
  // A marker after both: every step of the lobby has run once it arrives.
  await feed.store.publish(LOBBY_FEED_CHANNEL, lobbyUpdates([{ before: null, after: { ...states[2], version: states[2].version + 1 } }], T0)!.messages[0]);
  await feed.received(2);

  expect(feed.events.map((e) => JSON.parse(e.json).version)).toEqual([states[2].version, states[2].version + 1]);
});

it('forgets a closed lobby, and reads it again for the one change it may still get', async () => {
  const renderer = new LobbyUpdateRenderer();
  const cancelled = { ...gatheringLobby(), phase: 'cancelled' as const };
  const recorded = { ...cancelled, matchId: 9, version: cancelled.version + 1 };
  const [whole, delta] = lobbyUpdates([{ before: null, after: cancelled }, { before: cancelled, after: recorded }], T0, renderer.body)!.messages;
  const asked: string[] = [];
  const feed = await transportFeed(async (code) => {
    asked.push(code);
    return lobbyDetail(recorded, T0);
  });

  await feed.store.publish(LOBBY_FEED_CHANNEL, whole);
  await feed.store.publish(LOBBY_FEED_CHANNEL, delta);
  await feed.received(2);

  expect(asked).toEqual([recorded.code]);
  expect(feed.events[1].json).toBe(updateOf(recorded));
});

it('never hands on a version older than the one a read handed on, whole or delta', async () => {
  const { states, delta } = votedTwice();
  const later = (version: number): LobbyState => ({ ...states[1], version });
  let answer!: (detail: LobbyDetail) => void;
  const feed = await transportFeed(() => new Promise((resolve) => (answer = resolve)));

  await feed.store.publish(LOBBY_FEED_CHANNEL, delta);
  // Another instance's whole update, published before the lobby moved on past it.
  await feed.store.publish(LOBBY_FEED_CHANNEL, lobbyUpdates([{ before: null, after: later(states[2].version) }], T0)!.messages[0]);
  await vi.waitFor(() => expect(answer).toBeDefined());
  answer(lobbyDetail(later(states[2].version + 1), T0));
  await feed.store.publish(LOBBY_FEED_CHANNEL, lobbyUpdates([{ before: null, after: later(states[2].version + 2) }], T0)!.messages[0]);
  await feed.received(2);

  expect(feed.events.map((e) => JSON.parse(e.json).version)).toEqual([states[2].version + 1, states[2].version + 2]);
});

it('hands a listener added later every update from then on, deltas included, from the one assembly', async () => {
  const { states, whole, delta, next } = votedTwice();
  const feed = await transportFeed();
  await feed.store.publish(LOBBY_FEED_CHANNEL, whole);
  await feed.received(1);
  const later: Array<{ version: number; lobby: LobbyDetail }> = [];
  const stopListening = feed.started.listen({ lobbyUpdated: (_code, version, lobby) => later.push({ version, lobby }) });

  await feed.store.publish(LOBBY_FEED_CHANNEL, delta);
  await feed.received(2);
  stopListening();
  await feed.store.publish(LOBBY_FEED_CHANNEL, next);
  await feed.received(3);

  expect(later).toEqual([{ version: states[1].version, lobby: lobbyDetail(states[1], T0) }]);
});
