import type { LobbyCommand } from '../domain/lobby';
import type { Caller } from '../identity/caller';
import type { BodyOf } from '../../schema/route-contract';
import { lobbyCommandContracts, type LobbyCommandName } from '../../schema/routes/lobby-routes';
import type { CommandGate, CommandLimit } from './engine-ports';
import type { LobbyEngine } from './lobby-engine';

const OK = { ok: true } as const;

type BodyOfCommand<N extends LobbyCommandName> = BodyOf<(typeof lobbyCommandContracts)[N]>;

/**
 * How one command runs, given its body as the route contract parsed it and its gate; answers the
 * success body. A command waits for the gate before it changes anything, and may read meanwhile.
 */
type CommandRun<N extends LobbyCommandName> = (engine: LobbyEngine, code: string, body: BodyOfCommand<N>, caller: Caller, gate: CommandGate) => Promise<unknown>;

/** A plain domain command answering `{ok: true}`: the body maps to the command, the engine does the rest (and counts the limit). */
const domain =
  <N extends LobbyCommandName>(toCommand: (body: BodyOfCommand<N>) => LobbyCommand): CommandRun<N> =>
  async (engine, code, body, caller, gate) => {
    if (!gate.limit) await gate.gated();
    await engine.command(code, toCommand(body), caller, gate.limit);
    return OK;
  };

/** A command of its own engine method, run once the gate let it through. */
const gatedBy =
  <N extends LobbyCommandName>(run: (engine: LobbyEngine, code: string, body: BodyOfCommand<N>, caller: Caller) => Promise<unknown>): CommandRun<N> =>
  async (engine, code, body, caller, gate) => {
    await gate.gated();
    return run(engine, code, body, caller);
  };

/**
 * How each lobby command runs in the engine. Its wire contract (method, path, credentials, body,
 * statuses) is declared once, in schema/routes/lobby-routes.ts; both doors parse and authenticate
 * by that and then call `runLobbyCommand`, so a command answers the same whichever way it came.
 */
const RUNS: { [N in LobbyCommandName]: CommandRun<N> } = {
  join: domain(() => ({ type: 'join' })),
  'party-join': gatedBy(async (engine, code, _body, caller) => {
    await engine.partyJoin(code, caller);
    return OK;
  }),
  'pick-slot': domain((b) => ({ type: 'pick-slot', team: b.team, index: b.index, userId: b.user_id })),
  leave: domain(() => ({ type: 'leave' })),
  kick: domain((b) => ({ type: 'kick', userId: b.user_id })),
  'set-captain': domain((b) => ({ type: 'set-captain', userId: b.user_id, team: b.team })),
  'start-draft': domain(() => ({ type: 'start-draft' })),
  pick: domain((b) => ({ type: 'pick', userId: b.user_id })),
  unpick: domain((b) => ({ type: 'unpick', userId: b.user_id })),
  'drop-to-pool': domain((b) => ({ type: 'drop-to-pool', userId: b.user_id })),
  ready: domain(() => ({ type: 'ready' })),
  'keep-ready': domain(() => ({ type: 'keep-ready' })),
  'force-start': domain(() => ({ type: 'force-start' })),
  'set-class': domain((b) => ({ type: 'set-class', class: b.class })),
  'vote-map': domain((b) => ({ type: 'vote-map', map: b.map })),
  // Chat counts its limit in the push that stores it (see postChat).
  chat: async (engine, code, body, caller, gate) => {
    await engine.chat(code, caller, body.message, gate);
    return OK;
  },
  report: gatedBy(async (engine, code, body, caller) => ({ match_id: await engine.report(code, caller, body.score_red, body.score_blu) })),
  // 204: the REST door sends no body, the socket acks `{ok: true}`.
  cancel: gatedBy(async (engine, code, _body, caller) => {
    await engine.command(code, { type: 'cancel' }, caller);
    return undefined;
  }),
};

/**
 * Runs before a command (or a lobby's creation) reaches the engine (the per-user limits); throws
 * to refuse it. `limitOf`, when given, offers the same limit as a CommandLimit, which the commands
 * the engine commits itself count in their own commit.
 */
export type LobbyCommandGate = ((type: LobbyCommandName | 'create', caller: Caller) => Promise<void>) & {
  limitOf?: (type: LobbyCommandName, caller: Caller) => CommandLimit | undefined;
};

/**
 * Runs command `name` on lobby `code` (already parsed by the route's params schema) with a body
 * its contract already parsed; answers the success body. Refusals are thrown as the engine throws
 * them (DomainError, 401), for the door's one error mapping.
 */
export async function runLobbyCommand<N extends LobbyCommandName>(
  engine: LobbyEngine,
  code: string,
  name: N,
  body: BodyOfCommand<N>,
  caller: Caller,
  gate?: LobbyCommandGate,
): Promise<unknown> {
  let gated: Promise<void> | undefined;
  const commandGate: CommandGate = {
    gated: () => (gated ??= gate ? gate(name, caller) : Promise.resolve()),
    limit: gate?.limitOf?.(name, caller),
  };
  return (RUNS[name] as CommandRun<N>)(engine, code, body, caller, commandGate);
}
