import type { Caller } from '../identity/caller';
import type { LobbyCommandGate } from '../engine/lobby-command-table';
import type { LobbyEngine } from '../engine/lobby-engine';
import type { CommandOutcome, Metrics } from './metrics';

/** The HTTP status an error answers with (the one error mapping), or null for an unexpected error. */
export type StatusOf = (error: unknown) => number | null;

/**
 * Lobby commands counted by type and outcome at the two seams both doors (REST, native, socket)
 * already share, without touching either door: the per-user gate sees every command first and
 * counts the ones it refuses (`rate_limited`); the engine's four command methods count the rest
 * by how they settle. A 429 the engine passes on (chat awaits the gate inside it) is left to the gate.
 */
export function observedLobbyCommands(
  engine: LobbyEngine,
  gate: LobbyCommandGate,
  metrics: Pick<Metrics, 'lobbyCommand'>,
  statusOf: StatusOf,
): { engine: LobbyEngine; gate: LobbyCommandGate } {
  const settle = <T>(type: string, run: Promise<T>): Promise<T> =>
    run.then(
      (value) => {
        metrics.lobbyCommand(type, 'ok');
        return value;
      },
      (error: unknown) => {
        const outcome = outcomeOf(statusOf(error));
        if (outcome !== 'rate_limited') metrics.lobbyCommand(type, outcome);
        throw error;
      },
    );
  const observed: Partial<LobbyEngine> = {
    command: (code, command, caller, limit) => settle(command.type, engine.command(code, command, caller, limit)),
    chat: (code, caller, message, gate) => settle('chat', engine.chat(code, caller, message, gate)),
    partyJoin: (code, caller) => settle('party-join', engine.partyJoin(code, caller)),
    report: (code, caller, red, blu) => settle('report', engine.report(code, caller, red, blu)),
  };
  const observedEngine = new Proxy(engine, {
    get: (target, property, receiver) => {
      if (Object.hasOwn(observed, property)) return observed[property as keyof typeof observed];
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const observedGate: LobbyCommandGate = async (type, caller: Caller) => {
    try {
      await gate(type, caller);
    } catch (error) {
      if (statusOf(error) === 429) metrics.lobbyCommand(type, 'rate_limited');
      throw error;
    }
  };
  // A limit the engine counts in the command's commit is refused there: counted as it is made.
  const limitOf = gate.limitOf;
  if (limitOf) {
    observedGate.limitOf = (type, caller) => {
      const limit = limitOf(type, caller);
      return (
        limit && {
          hit: limit.hit,
          refuse: (verdict) => {
            metrics.lobbyCommand(type, 'rate_limited');
            return limit.refuse(verdict);
          },
        }
      );
    };
  }
  return { engine: observedEngine, gate: observedGate };
}

function outcomeOf(status: number | null): CommandOutcome {
  if (status === 429) return 'rate_limited';
  if (status !== null && status >= 400 && status < 500) return 'refused';
  return 'error';
}
