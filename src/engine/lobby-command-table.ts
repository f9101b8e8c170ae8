import * as v from 'valibot';
import { echo } from '../../schema/issue-message';
import { invalid } from '../domain/domain-error';
import type { LobbyCommand } from '../domain/lobby';
import type { Caller } from '../identity/caller';
import {
  ChatBody, PickSlotBody, ReportBody, SetCaptainBody, SetClassBody, UserIdBody, VoteMapBody,
} from '../../schema/lobby-bodies';
import type { LobbyEngine } from './lobby-engine';
import { parseInput } from '../../schema/parse-input';

const NoBody = v.object({});
const OK = { ok: true } as const;

/** One client command: its wire body, its success status, and how it runs in the engine. */
export interface LobbyCommandRow<S extends v.GenericSchema = v.GenericSchema> {
  body: S;
  status: number;
  run(engine: LobbyEngine, code: string, body: v.InferOutput<S>, caller: Caller): Promise<unknown>;
}

const row = <S extends v.GenericSchema>(body: S, status: number, run: LobbyCommandRow<S>['run']): LobbyCommandRow<S> => ({
  body,
  status,
  run,
});

/** A plain domain command answering `{ok: true}`: the body maps to the command, the engine does the rest. */
const domain = <S extends v.GenericSchema>(body: S, toCommand: (body: v.InferOutput<S>) => LobbyCommand) =>
  row(body, 200, async (engine, code, input, caller) => {
    await engine.command(code, toCommand(input), caller);
    return OK;
  });

/**
 * THE table of lobby commands a client may send, keyed by the last path segment of the REST
 * route, which is also the `type` of a socket `lobby:command`. Both doors go through
 * `runLobbyCommand`, so a command answers the same whichever way it came.
 */
export const LOBBY_COMMANDS = {
  join: domain(NoBody, () => ({ type: 'join' })),
  'party-join': row(NoBody, 200, async (engine, code, _body, caller) => {
    await engine.partyJoin(code, caller);
    return OK;
  }),
  'pick-slot': domain(PickSlotBody, (b) => ({ type: 'pick-slot', team: b.team, index: b.index, userId: b.user_id })),
  leave: domain(NoBody, () => ({ type: 'leave' })),
  kick: domain(UserIdBody, (b) => ({ type: 'kick', userId: b.user_id })),
  'set-captain': domain(SetCaptainBody, (b) => ({ type: 'set-captain', userId: b.user_id, team: b.team })),
  'start-draft': domain(NoBody, () => ({ type: 'start-draft' })),
  pick: domain(UserIdBody, (b) => ({ type: 'pick', userId: b.user_id })),
  unpick: domain(UserIdBody, (b) => ({ type: 'unpick', userId: b.user_id })),
  'drop-to-pool': domain(UserIdBody, (b) => ({ type: 'drop-to-pool', userId: b.user_id })),
  ready: domain(NoBody, () => ({ type: 'ready' })),
  'keep-ready': domain(NoBody, () => ({ type: 'keep-ready' })),
  'force-start': domain(NoBody, () => ({ type: 'force-start' })),
  'set-class': domain(SetClassBody, (b) => ({ type: 'set-class', class: b.class })),
  'vote-map': domain(VoteMapBody, (b) => ({ type: 'vote-map', map: b.map })),
  chat: row(ChatBody, 200, async (engine, code, body, caller) => {
    await engine.chat(code, caller, body.message);
    return OK;
  }),
  report: row(ReportBody, 201, async (engine, code, body, caller) => ({
    match_id: await engine.report(code, caller, body.score_red, body.score_blu),
  })),
} satisfies Record<string, LobbyCommandRow<any>>;

export type LobbyCommandName = keyof typeof LOBBY_COMMANDS;
export const LOBBY_COMMAND_NAMES = Object.keys(LOBBY_COMMANDS) as LobbyCommandName[];

export const isLobbyCommandName = (type: unknown): type is LobbyCommandName =>
  typeof type === 'string' && Object.prototype.hasOwnProperty.call(LOBBY_COMMANDS, type);

function parseBody(schema: v.GenericSchema, input: unknown): unknown {
  const parsed = parseInput(schema, input, 'body');
  if (!parsed.ok) throw invalid(parsed.message);
  return parsed.value;
}

/**
 * Parses the raw body of command `type` and runs it. Answers the status and body the REST route
 * sends; throws DomainError (400/403/404/409) or a 401 error shaped like an HttpError otherwise.
 */
/** Runs before a known command is parsed (the per-user limits); throws to refuse it. */
export type LobbyCommandGate = (type: LobbyCommandName, caller: Caller) => Promise<void>;

export async function runLobbyCommand(
  engine: LobbyEngine,
  code: string,
  type: string,
  rawBody: unknown,
  caller: Caller,
  gate?: LobbyCommandGate,
): Promise<{ status: number; body: unknown }> {
  if (!isLobbyCommandName(type)) throw invalid(`type: unknown lobby command "${echo(String(type))}"`);
  await gate?.(type, caller);
  const command = LOBBY_COMMANDS[type] as LobbyCommandRow;
  const body = parseBody(command.body, rawBody);
  return { status: command.status, body: await command.run(engine, code.toUpperCase(), body, caller) };
}
