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
    success: { status: 200, schema: LobbyCreated }, errors: [400, 403, 404, 409],
  }),
  detail: defineRoute({
    operationId: 'getLobby', method: 'get', path: '/api/lobbies/:code', tag, auth: [], params,
    summary: 'The whole lobby (LobbyDetail)', success: { status: 200, schema: LobbyDetail }, errors: [404],
  }),
  cancel: defineRoute({
    operationId: 'cancelLobby', method: 'delete', path: '/api/lobbies/:code', tag, auth: ['session'], params,
    summary: 'Cancel the lobby (host only; also `lobby:command {type: "cancel"}` over the socket); again or after the match ended: 409', success: { status: 204 }, errors: [403, 404, 409],
  }),
  votes: defineRoute({
    operationId: 'getLobbyVotes', method: 'get', path: '/api/lobbies/:code/votes', tag, auth: [], params,
    summary: 'Votes per map of the pool', success: { status: 200, schema: VotesBody }, errors: [404],
  }),
  myVote: defineRoute({
    operationId: 'getMyLobbyVote', method: 'get', path: '/api/lobbies/:code/my-vote', tag, auth: ['session'], params,
    summary: "The caller's map vote", success: { status: 200, schema: MyVoteBody }, errors: [404],
  }),
  chatHistory: defineRoute({
    operationId: 'getLobbyChat', method: 'get', path: '/api/lobbies/:code/chat', tag, auth: [], params,
    summary: 'The last 200 chat messages, oldest first',
    success: { status: 200, schema: v.object({ messages: v.array(LobbyChatMessage) }) }, errors: [404],
  }),
};

function command<B extends v.GenericSchema | undefined = undefined>(
  name: string, operationId: string, summary: string, errors: number[], body?: B, status = 200,
): RouteContract<typeof params, undefined, B> {
  return defineRoute({
    operationId, method: 'post', path: `/api/lobbies/:code/${name}`, tag, auth: ['session'], params, summary,
    ...(body ? { body } : {}), success: { status, schema: status === 201 ? MatchIdBody : OkBody }, errors,
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
