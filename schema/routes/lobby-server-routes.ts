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
    description:
      'Runs one console command on the lobby\'s game server and returns its output; every command is written to the RCON audit log. Only the lobby\'s host or an admin (403); 404 for an unknown lobby; 409 when the lobby has no active server attached; 504 when the server does not answer.',
    bodyExample: { command: 'changelevel cp_process_final' },
    summary: "Runs a console command on the lobby's server (host or admin; audited); 409 without an active server, 504 when it does not answer",
    success: { status: 200, schema: RconExecResponse }, errors: [400, 401, 403, 404, 409, 504],
  }),
  logStatus: defineRoute({
    operationId: 'lobbyLogStatus', method: 'get', path: '/api/lobbies/:code/log-status', tag, auth: [], params,
    description:
      'Where the lobby\'s match log stands: pending (not asked for), uploading (the plugin was asked), ready (with log_url and, when the plugin sent it, demo_url) or failed (no log 10 minutes after asking). Anyone may call it; 404 for an unknown lobby.',
    summary: "The match log: pending, uploading (the plugin was asked), ready (log_url known) or failed (no log 10 minutes after asking)",
    success: { status: 200, schema: LogStatusResponse }, errors: [404],
  }),
  fetchLog: defineRoute({
    operationId: 'lobbyFetchLog', method: 'post', path: '/api/lobbies/:code/fetch-log', tag, auth: ['session'], params, body: FetchLogBody,
    description:
      'Asks the in-game plugin to upload the match log; the log status is uploading until it reports, and failed if no log comes within 10 minutes. Only the host or an admin (403); 409 without an active server; 504 when the server does not answer (the host may still submit the log).',
    bodyExample: {},
    summary: 'Tells the in-game plugin to upload the match log (host or admin)',
    success: { status: 200, schema: OkBody }, errors: [401, 403, 404, 409, 504],
  }),
  submitLog: defineRoute({
    operationId: 'lobbySubmitLog', method: 'post', path: '/api/lobbies/:code/submit-log', tag, auth: ['session'], params, body: SubmitLogBody,
    description:
      'The host or an admin gives the match log URL directly when the plugin could not; the log status becomes ready. 403 for anyone else; 404 for an unknown lobby; 409 when the lobby has no game server attached.',
    bodyExample: { log_url: 'https://logs.tf/3712345' },
    summary: 'The host (or an admin) gives the match log URL directly, when the plugin could not',
    success: { status: 200, schema: OkBody }, errors: [400, 401, 403, 404, 409],
  }),
  checkServer: defineRoute({
    operationId: 'lobbyCheckServer', method: 'post', path: '/api/lobbies/:code/check-server', tag, auth: ['session'], params,
    description:
      'Queries the lobby\'s game server over A2S with a short timeout and reports whether it is online, its player count and map; online is false when the lobby has no active server or it does not answer. Any logged-in user; 404 for an unknown lobby.',
    summary: "Pings the lobby's server over A2S (short timeout); offline when it cannot be reached",
    success: { status: 200, schema: ServerCheck }, errors: [401, 403, 404],
  }),
};
