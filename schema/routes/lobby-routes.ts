import * as v from 'valibot';
import { OkBody } from '../common';
import { LobbyChatMessage, LobbyDetail } from '../lobby';
import {
  ChatBody, LobbyCodeParams, LobbyCreateBody, LobbyCreated, MatchIdBody, MyVoteBody, PickSlotBody, ReportBody, SetCaptainBody,
  SetClassBody, UserIdBody, VoteMapBody, VotesBody,
} from '../lobby-bodies';
import { defineRoute, type RouteContract } from '../route-contract';

const tag = 'Lobbies';
const params = LobbyCodeParams;

export const lobbyRoutes = {
  create: defineRoute({
    operationId: 'createLobby', method: 'post', path: '/api/lobbies', tag, auth: ['session'],
    summary: 'Create a lobby; the caller becomes host and its first free agent', body: LobbyCreateBody,
    description:
      'Opens a lobby in the gathering phase with the caller as host and first free agent. The map pool is 2 to 5 maps from GET /api/servers/maps (the format\'s default pool otherwise); reservation_id pins the lobby to one of the caller\'s game-server reservations. A banned caller gets 403, a caller already in an open lobby 409, an unknown reservation 404. Subscribers of `lobbies:subscribe` see it at once.',
    bodyExample: { format: '6v6', name: 'Evening pug', map_pool: ['cp_process_final', 'cp_sunshine', 'koth_product_final'] },
    success: { status: 200, schema: LobbyCreated }, errors: [400, 403, 404, 409],
  }),
  detail: defineRoute({
    operationId: 'getLobby', method: 'get', path: '/api/lobbies/:code', tag, auth: [], params,
    summary: 'The whole lobby (LobbyDetail)',
    description:
      'LobbyDetail of a lobby, open or finished: seats per team (index, class, user, ready), the free-agent pool, captains, map pool and votes, and `version`, which grows by one with every change. The same document `lobby:subscribe` acknowledges and `lobby:update` carries.',
    success: { status: 200, schema: LobbyDetail }, errors: [404],
  }),
  cancel: defineRoute({
    operationId: 'cancelLobby', method: 'delete', path: '/api/lobbies/:code', tag, auth: ['session'], params,
    summary: 'Cancel the lobby (host only; also `lobby:command {type: "cancel"}` over the socket); again or after the match ended: 409',
    description:
      'The host cancels a lobby in any phase before `ended`; every member is released and subscribers get the cancelled lobby. Not the host: 403; already cancelled or ended: 409.',
    success: { status: 204 }, errors: [403, 404, 409],
  }),
  votes: defineRoute({
    operationId: 'getLobbyVotes', method: 'get', path: '/api/lobbies/:code/votes', tag, auth: [], params,
    summary: 'Votes per map of the pool',
    description:
      'The vote count of every map of the lobby\'s pool.',
    success: { status: 200, schema: VotesBody }, errors: [404],
  }),
  myVote: defineRoute({
    operationId: 'getMyLobbyVote', method: 'get', path: '/api/lobbies/:code/my-vote', tag, auth: ['session'], params,
    summary: "The caller's map vote",
    description:
      'The map the caller voted for in this lobby, or null when they have not voted.',
    success: { status: 200, schema: MyVoteBody }, errors: [404],
  }),
  chatHistory: defineRoute({
    operationId: 'getLobbyChat', method: 'get', path: '/api/lobbies/:code/chat', tag, auth: [], params,
    summary: 'The last 200 chat messages, oldest first',
    description:
      'The lobby\'s recent chat, oldest first; new lines arrive over socket.io as `lobby:chat`.',
    success: { status: 200, schema: v.object({ messages: v.array(LobbyChatMessage) }) }, errors: [404],
  }),
};

/** What every lobby command shares; each command's own rule comes first. */
const COMMAND_RULES =
  'The same command is `lobby:command {code, type, ...body}` over socket.io, answering the same status. ' +
  'Every accepted change raises the lobby version by one and reaches subscribers as `lobby:update`. ' +
  'Not allowed for the caller: 403; no such lobby: 404; not possible in this phase or state: 409; ' +
  'over COMMAND_RATE_LIMIT (CHAT_RATE_LIMIT for chat): 429.';

/** Bodies of the commands that take one, as a client sends them. */
const EXAMPLES: Record<string, unknown> = {
  'pick-slot': { team: 'red', index: 2 },
  kick: { user_id: 42 },
  'set-captain': { user_id: 42, team: 'blu' },
  pick: { user_id: 42 },
  unpick: { user_id: 42 },
  'drop-to-pool': { user_id: 42 },
  'set-class': { class: 'medic' },
  'vote-map': { map: 'cp_process_final' },
  chat: { message: 'glhf' },
  report: { score_red: 3, score_blu: 1 },
};

function command<B extends v.GenericSchema | undefined = undefined>(
  name: string, operationId: string, summary: string, errors: number[], body?: B, status = 200,
): RouteContract<typeof params, undefined, B> {
  return defineRoute({
    operationId, method: 'post', path: `/api/lobbies/:code/${name}`, tag, auth: ['session'], params, summary,
    description: `${summary}. ${COMMAND_RULES}`,
    ...(body ? { body, bodyExample: EXAMPLES[name] } : {}), success: { status, schema: status === 201 ? MatchIdBody : OkBody }, errors,
  }) as RouteContract<typeof params, undefined, B>;
}

/** One route per lobby command (POST /api/lobbies/{code}/<name>). */
export const lobbyCommandRoutes = {
  join: command('join', 'joinLobby', 'Take a free-agent place; a lobby admits its slot count (6v6 12, 9v9 18, 4v4 8, ultiduo 4), pool and seats together: full, 409. Open while gathering, drafting and in the ready check: a draft that started short picks latecomers from the pool', [403, 404, 409]),
  'party-join': command('party-join', 'partyJoinLobby', "Bring the caller's whole party (leader only), all or nothing: without room for every member, 409 and nobody joins", [403, 404, 409]),
  'pick-slot': command('pick-slot', 'pickLobbySlot', 'Move oneself (or, as captain, a teammate) to a free slot of the team', [403, 404, 409], PickSlotBody),
  leave: command('leave', 'leaveLobby', "Free the caller's place", [404, 409]),
  kick: command('kick', 'kickFromLobby', 'Host: anyone; captain: a player on the opposing team', [403, 404, 409], UserIdBody),
  'set-captain': command('set-captain', 'setLobbyCaptain', 'Host names a captain (the free side by default)', [403, 404, 409], SetCaptainBody),
  'start-draft': command('start-draft', 'startLobbyDraft', 'Host: gathering to drafting', [403, 404, 409]),
  pick: command('pick', 'pickLobbyPlayer', 'Captain drafts a free agent; the pick that fills both teams starts the ready check (a full lobby then has an empty pool)', [403, 404, 409], UserIdBody),
  unpick: command('unpick', 'unpickLobbyPlayer', "Captain reverses the team's last pick", [403, 404, 409], UserIdBody),
  'drop-to-pool': command('drop-to-pool', 'dropLobbyPlayerToPool', 'Captain returns a drafted player to the pool', [403, 404, 409], UserIdBody),
  ready: command('ready', 'readyInLobby', 'Raise the ready flag for 30 s (drafting or ready check)', [403, 404, 409]),
  'keep-ready': command('keep-ready', 'keepReadyInLobby', 'Renew a ready flag that is still on', [403, 404, 409]),
  'force-start': command('force-start', 'forceStartLobby', 'Host starts the match, skipping the ready check', [403, 404, 409]),
  'set-class': command('set-class', 'setLobbyClass', "The caller's class, within the format's limits", [403, 404, 409], SetClassBody),
  'vote-map': command('vote-map', 'voteLobbyMap', 'Vote for a map of the pool (replaces an earlier vote)', [403, 404, 409], VoteMapBody),
  chat: command('chat', 'postLobbyChat', 'Say something (1 to 500 characters)', [403, 404, 409], ChatBody),
  report: command('report', 'reportLobbyMatch', 'Final score, by a captain or the host; again: 409', [403, 404, 409], ReportBody, 201),
};

/**
 * THE declaration of every lobby command a client may send, by the `type` a socket
 * `lobby:command` names: its method, path, credentials, body schema and success status. REST binds
 * these routes, the socket parses and authenticates by them, the engine's command table only says
 * how each runs. `cancel` is the DELETE of the lobby itself.
 */
export const lobbyCommandContracts = { ...lobbyCommandRoutes, cancel: lobbyRoutes.cancel };

export type LobbyCommandName = keyof typeof lobbyCommandContracts;
export const LOBBY_COMMAND_NAMES = Object.keys(lobbyCommandContracts) as LobbyCommandName[];

export const isLobbyCommandName = (type: unknown): type is LobbyCommandName =>
  typeof type === 'string' && Object.prototype.hasOwnProperty.call(lobbyCommandContracts, type);
