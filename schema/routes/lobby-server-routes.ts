import { OkBody } from '../common';
import { LobbyCodeParams } from '../lobby-bodies';
import { FetchLogBody, LogStatusResponse, RconExecBody, RconExecResponse, ServerCheck, SubmitLogBody } from '../lobby-server';
import { defineRoute } from '../route-contract';

const tag = 'Lobbies';
const params = LobbyCodeParams;

/** The lobby routes that need the lobby's reserved game server. */
export const lobbyServerRoutes = {
  rconExec: defineRoute({
    operationId: 'lobbyRconExec', method: 'post', path: '/api/lobbies/:code/rcon-exec', tag, auth: ['session'], params, body: RconExecBody,
    summary: "Runs a console command on the lobby's server (host or admin; audited); 409 without an active server, 504 when it does not answer",
    success: { status: 200, schema: RconExecResponse }, errors: [400, 401, 403, 404, 409, 504],
  }),
  logStatus: defineRoute({
    operationId: 'lobbyLogStatus', method: 'get', path: '/api/lobbies/:code/log-status', tag, auth: [], params,
    summary: "The match log: pending, uploading (the plugin was asked), ready (log_url known) or failed (no log 10 minutes after asking)",
    success: { status: 200, schema: LogStatusResponse }, errors: [404],
  }),
  fetchLog: defineRoute({
    operationId: 'lobbyFetchLog', method: 'post', path: '/api/lobbies/:code/fetch-log', tag, auth: ['session'], params, body: FetchLogBody,
    summary: 'Tells the in-game plugin to upload the match log (host or admin)',
    success: { status: 200, schema: OkBody }, errors: [401, 403, 404, 409, 504],
  }),
  submitLog: defineRoute({
    operationId: 'lobbySubmitLog', method: 'post', path: '/api/lobbies/:code/submit-log', tag, auth: ['session'], params, body: SubmitLogBody,
    summary: 'The host (or an admin) gives the match log URL directly, when the plugin could not',
    success: { status: 200, schema: OkBody }, errors: [400, 401, 403, 404, 409],
  }),
  checkServer: defineRoute({
    operationId: 'lobbyCheckServer', method: 'post', path: '/api/lobbies/:code/check-server', tag, auth: ['session'], params,
    summary: "Pings the lobby's server over A2S (short timeout); offline when it cannot be reached",
    success: { status: 200, schema: ServerCheck }, errors: [401, 403, 404],
  }),
};
