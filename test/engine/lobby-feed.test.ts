import { expect, it } from 'vitest';
import type { LobbyDetail } from '../../schema/lobby';
import { lobbyDetail, type LobbyState } from '../../src/domain/lobby';
import { LOBBY_FEED_CHANNEL, numberedChat, lobbyUpdates, startLobbyFeed, type LobbyFeedListener } from '../../src/engine/lobby-broadcast';
import { MemoryLiveStore } from '../../src/live/memory-live-store';
import { newLobby, T0 } from '../unit/lobby/lobby-fixtures';

const gathering = (code: string, version: number): LobbyState => ({ ...newLobby(), code, version });
const live = (code: string, version: number): LobbyState => ({ ...gathering(code, version), phase: 'live' });

async function publishUpdates(store: MemoryLiveStore, states: LobbyState[]): Promise<void> {
  for (const message of lobbyUpdates(states, T0)!.messages) await store.publish(LOBBY_FEED_CHANNEL, message);
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
