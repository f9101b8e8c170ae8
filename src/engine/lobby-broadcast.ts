import type { LobbyChatMessage, LobbyDetail, LobbySummary } from '../../schema/lobby';
import { lobbyDetail, type LobbyPhase, type LobbyState } from '../domain/lobby';
import type { LiveStore, NumberedPush, NumberedText, Publication, Unsubscribe } from '../live/live-store';
import { LobbyFeedAssembler, type AssembledUpdate, type ReadLobby } from './lobby-feed-assembler';
import { fieldsOf, wholeBody } from './lobby-update-fields';

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
   * Optional: the `lobby:update` or `lobby:chat` payload as JSON text (an update's as the feed
   * assembled it from its fields), for a transport that can send it without parsing it first
   * (`version`: an update's, else 0). Without it the feed parses and calls the methods above.
   */
  lobbyEventJson?(code: string, event: 'lobby:update' | 'lobby:chat', json: string, version: number): void;
  /**
   * Optional, beside `lobbyEventJson`: whether an update of this lobby would reach anyone through
   * this transport now, or be kept for a socket that may come back. False spares the update's JSON
   * and its place in the transport's queue: every instance receives every lobby's updates, and
   * watches only some of them.
   */
  wantsUpdate?(code: string): boolean;
}

/**
 * What a consumer of the feed that is not a transport takes of it (the game servers' setup): only
 * the kinds it names, and updates only of lobbies in `phases` when given. Nothing else is parsed:
 * every instance receives every update of every lobby (most of them deltas of a few fields).
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
 * routes and filters it without parsing), then for an update its fields, whole or as a delta from
 * the version before (see lobby-update-fields.ts), and for the others the JSON of the payload.
 */
const UPDATE = 'u';
const CHAT = 'c';
const LIST = 'l';

/** A change to announce: the state before (null: none known to the publisher) and after. */
export interface LobbyChange {
  before: LobbyState | null;
  after: LobbyState;
}

/**
 * The feed body of a change's `lobby:update` (see lobby-update-fields.ts); a LobbyUpdateRenderer's
 * `body` writes deltas. A delta is only ever from the fields the feed carried for the version before.
 */
export type UpdateBody = (after: LobbyState, before: LobbyState | null, now: number) => string;

const wholeUpdate: UpdateBody = (after, _before, now) => wholeBody(fieldsOf(lobbyDetail(after, now)));

/** The `lobby:update` of each change, in version order, to publish with the write that makes them. */
export function lobbyUpdates(changes: readonly LobbyChange[], now: number, body: UpdateBody = wholeUpdate): Publication | undefined {
  if (changes.length === 0) return undefined;
  const messages = changes.map(({ before, after }) => `${UPDATE}${after.code}\n${after.version}\n${after.phase}\n${body(after, before, now)}`);
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

export interface LobbyFeedOptions {
  /** Reads a lobby whose delta this receiver cannot place (see LobbyFeedAssembler); without it such a delta is dropped. */
  read?: ReadLobby;
  /**
   * Reads the open lobby list, for the lists the feed may have lost with its subscription: without
   * it the list watchers wait for the next change of the list.
   */
  readList?: () => Promise<LobbySummary[]>;
  /** A read that failed, or a message that could not be placed (`code` '' for the list). */
  onError?: (error: unknown, code: string) => void;
}

/** How soon a list read again after a possible loss is tried again when the read failed. */
const LIST_RETRY_MS = 1_000;

/** This instance's subscription to the lobby feed. */
export interface LobbyFeed {
  /** Another listener, from now on (an area assembled after the feed started); answers its removal. */
  listen(listener: LobbyFeedListener): () => void;
  stop: Unsubscribe;
}

/**
 * This instance's delivery of the lobby feed to its own watchers and other listeners: one
 * subscription and one assembler of the updates' fields, whoever listens. Resolves once
 * subscribed: from then on nothing published is missed.
 */
export async function startLobbyFeed(live: LiveStore, listener: LobbyFeedListener, options: LobbyFeedOptions = {}): Promise<LobbyFeed> {
  const listeners = [listener];
  const assembler = new LobbyFeedAssembler(
    (update) => {
      for (const each of listeners) handUpdate(each, update);
    },
    options.read,
    options.onError ?? (() => undefined),
  );
  const takesUpdates = () => listeners.some((each) => each.lobbyEventJson !== undefined || each.lobbyUpdated !== undefined);
  const listTakers = () => listeners.filter((each) => each.lobbiesChanged);
  /** Lists received so far: a list read again is handed on only if no newer one arrived meanwhile. */
  let lists = 0;
  const readListAgain = () => {
    const { readList, onError = () => undefined } = options;
    if (!readList || listTakers().length === 0) return;
    const before = lists;
    readList().then(
      (lobbies) => {
        if (lists === before) for (const each of listTakers()) each.lobbiesChanged!(lobbies);
      },
      (error: unknown) => {
        onError(error, '');
        // The store is still coming back: tried again, unless a list came meanwhile.
        setTimeout(() => {
          if (lists === before) readListAgain();
        }, LIST_RETRY_MS).unref();
      },
    );
  };
  const stop = await live.subscribe(LOBBY_FEED_CHANNEL, (message) => {
    switch (message[0]) {
      case UPDATE: {
        if (!takesUpdates()) return;
        const codeEnd = message.indexOf('\n');
        const versionEnd = message.indexOf('\n', codeEnd + 1);
        const phaseEnd = message.indexOf('\n', versionEnd + 1);
        const code = message.slice(1, codeEnd);
        return assembler.update(code, Number(message.slice(codeEnd + 1, versionEnd)), message.slice(versionEnd + 1, phaseEnd), message.slice(phaseEnd + 1));
      }
      case CHAT: {
        const newline = message.indexOf('\n');
        const code = message.slice(1, newline);
        // After the lobby's updates that arrived before it, even while they wait for a read.
        return assembler.inOrder(code, () => {
          for (const each of listeners) handChat(each, code, message.slice(newline + 1));
        });
      }
      case LIST: {
        lists += 1;
        const wanted = listTakers();
        if (wanted.length === 0) return;
        const { lobbies } = JSON.parse(message.slice(1)) as { lobbies: LobbySummary[] };
        for (const each of wanted) each.lobbiesChanged!(lobbies);
        return;
      }
      // Anything else (a test's marker) is not for watchers.
    }
  }, () => {
    assembler.recheckAll();
    readListAgain();
  });
  return {
    listen: (another) => {
      listeners.push(another);
      return () => {
        const at = listeners.indexOf(another);
        if (at !== -1) listeners.splice(at, 1);
      };
    },
    stop,
  };
}

/** An update as a listener takes it: JSON for a transport, else parsed, and only of its phases. */
function handUpdate(listener: LobbyFeedListener, update: AssembledUpdate): void {
  if (listener.lobbyEventJson) {
    if (listener.wantsUpdate?.(update.code) === false) return;
    return listener.lobbyEventJson(update.code, 'lobby:update', update.json(), update.version);
  }
  if (!listener.lobbyUpdated) return;
  if (listener.phases && !listener.phases.includes(update.phase as LobbyPhase)) return;
  listener.lobbyUpdated(update.code, update.version, (JSON.parse(update.json()) as { lobby: LobbyDetail }).lobby);
}

/** A chat message as a listener takes it: JSON for a transport, parsed for one that takes chat, else not at all. */
function handChat(listener: LobbyFeedListener, code: string, json: string): void {
  if (listener.lobbyEventJson) return listener.lobbyEventJson(code, 'lobby:chat', json, 0);
  listener.lobbyChat?.(code, (JSON.parse(json) as { message: LobbyChatMessage }).message);
}
