import type { LobbyChatMessage, LobbyDetail, LobbySummary } from '../../schema/lobby';
import { lobbyDetail, type LobbyPhase, type LobbyState } from '../domain/lobby';
import type { LiveStore, NumberedPush, NumberedText, Publication, Unsubscribe } from '../live/live-store';

/**
 * Where the lobby engine's announcements reach watchers. The engine never calls this port itself:
 * it publishes on the live store's lobby feed in the same atomic step as the change (see
 * `lobbyUpdates`), and every instance runs `startLobbyFeed`, which hands what arrives from that
 * one channel to its own sockets. The live store orders the feed by commit, so every subscriber of
 * a lobby sees its versions strictly increasing whichever instance made them.
 */
export interface LobbyBroadcast {
  lobbyUpdated(code: string, version: number, lobby: LobbyDetail): void;
  lobbyChat(code: string, message: LobbyChatMessage): void;
  lobbiesChanged(lobbies: LobbySummary[]): void;
  /**
   * Optional: the `lobby:update` or `lobby:chat` payload as the JSON text the feed carries, for a
   * transport that can send it without parsing it first (`version`: an update's, else 0). Without
   * it the feed parses and calls the methods above.
   */
  lobbyEventJson?(code: string, event: 'lobby:update' | 'lobby:chat', json: string, version: number): void;
}

/**
 * What a consumer of the feed that is not a transport takes of it (the game servers' setup): only
 * the kinds it names, and updates only of lobbies in `phases` when given. Nothing else is parsed:
 * every instance receives every update of every lobby, 4 KB of JSON each.
 */
export type LobbyFeedListener = Partial<LobbyBroadcast> & { phases?: readonly LobbyPhase[] };

export const SILENT_BROADCAST: LobbyBroadcast = {
  lobbyUpdated: () => undefined,
  lobbyChat: () => undefined,
  lobbiesChanged: () => undefined,
};

/** The one channel of every lobby announcement. */
export const LOBBY_FEED_CHANNEL = 'lobby-feed';

/*
 * A feed message is one letter saying what it is, then for lobby events the lobby code and a
 * newline, for an update also its version and phase each followed by a newline (so a receiver
 * routes and filters it without parsing), then the JSON of the event's payload.
 */
const UPDATE = 'u';
const CHAT = 'c';
const LIST = 'l';

/** The JSON of a `lobby:update` payload; a LobbyUpdateRenderer's `json` writes the same, faster. */
export type UpdateJson = (state: LobbyState, now: number) => string;

const plainUpdateJson: UpdateJson = (state, now) => JSON.stringify({ code: state.code, version: state.version, lobby: lobbyDetail(state, now) });

/** The `lobby:update` of each changed state, in version order, to publish with the write that makes them. */
export function lobbyUpdates(states: readonly LobbyState[], now: number, json: UpdateJson = plainUpdateJson): Publication | undefined {
  if (states.length === 0) return undefined;
  const messages = states.map((state) => `${UPDATE}${state.code}\n${state.version}\n${state.phase}\n${json(state, now)}`);
  return { channel: LOBBY_FEED_CHANNEL, messages };
}

/**
 * A chat message as the live store numbers it (see NumberedPush): its stored JSON and its
 * `lobby:chat` feed message, each with the place of its id left out. The store gives the id in the
 * same step as the push and the publish, so watchers get chat in history order and ids in both.
 */
export function numberedChat(code: string, message: Omit<LobbyChatMessage, 'id'>): { entry: NumberedText; publish: NumberedPush['publish'] } {
  // `{"id":<n>,` then the message's other fields: the JSON of the whole message, id first.
  const rest = `,${JSON.stringify(message).slice(1)}`;
  return {
    entry: { before: '{"id":', after: rest },
    publish: { channel: LOBBY_FEED_CHANNEL, messages: [{ before: `${CHAT}${code}\n{"code":${JSON.stringify(code)},"message":{"id":`, after: `${rest}}` }] },
  };
}

export function publishLobbies(live: LiveStore, lobbies: LobbySummary[]): Promise<void> {
  return live.publish(LOBBY_FEED_CHANNEL, LIST + JSON.stringify({ lobbies }));
}

/**
 * This instance's delivery of the lobby feed to its own watchers. Resolves once subscribed: from
 * then on nothing published is missed.
 */
export function startLobbyFeed(live: LiveStore, listener: LobbyFeedListener): Promise<Unsubscribe> {
  return live.subscribe(LOBBY_FEED_CHANNEL, (message) => {
    switch (message[0]) {
      case UPDATE: {
        const codeEnd = message.indexOf('\n');
        const versionEnd = message.indexOf('\n', codeEnd + 1);
        const phaseEnd = message.indexOf('\n', versionEnd + 1);
        const code = message.slice(1, codeEnd);
        const version = Number(message.slice(codeEnd + 1, versionEnd));
        if (listener.lobbyEventJson) return listener.lobbyEventJson(code, 'lobby:update', message.slice(phaseEnd + 1), version);
        if (!listener.lobbyUpdated) return;
        if (listener.phases && !listener.phases.includes(message.slice(versionEnd + 1, phaseEnd) as LobbyPhase)) return;
        return listener.lobbyUpdated(code, version, (JSON.parse(message.slice(phaseEnd + 1)) as { lobby: LobbyDetail }).lobby);
      }
      case CHAT: {
        const newline = message.indexOf('\n');
        const code = message.slice(1, newline);
        if (listener.lobbyEventJson) return listener.lobbyEventJson(code, 'lobby:chat', message.slice(newline + 1), 0);
        if (listener.lobbyChat) return listener.lobbyChat(code, (JSON.parse(message.slice(newline + 1)) as { message: LobbyChatMessage }).message);
        return;
      }
      case LIST:
        return listener.lobbiesChanged?.((JSON.parse(message.slice(1)) as { lobbies: LobbySummary[] }).lobbies);
      // Anything else (a test's marker) is not for watchers.
    }
  });
}
