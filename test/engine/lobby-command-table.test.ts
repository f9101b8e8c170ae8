import { describe, expect, it } from 'vitest';
import { CLIENT_COMMAND_TYPES } from '../../src/domain/lobby';
import { toHttpError } from '../../rest/error-mapping';
import { UnauthorizedError } from '../../src/engine/engine-errors';

import { LOBBY_COMMAND_NAMES, LOBBY_COMMANDS, runLobbyCommand } from '../../src/engine/lobby-command-table';
import type { LobbyEngine } from '../../src/engine/lobby-engine';
import { ANONYMOUS } from '../../src/identity/caller';
import { lobbyCommandRoutes } from '../../schema/routes/lobby-routes';

/** The status and message a door answers for an engine error (rest/error-mapping, shared by both doors). */
function clientErrorOf(error: unknown): { status: number; error: string } | null {
  const mapped = toHttpError(error);
  return mapped ? { status: mapped.status, error: mapped.message } : null;
}

const never = new Proxy({}, { get: () => () => Promise.reject(new Error('the engine must not be reached')) }) as LobbyEngine;

const errorOf = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => clientErrorOf(e));

describe('lobby command table', () => {
  it('has a row for every client command but cancel (DELETE), and chat', () => {
    const expected = [...CLIENT_COMMAND_TYPES.filter((t) => t !== 'cancel'), 'chat'].sort();
    expect([...LOBBY_COMMAND_NAMES].sort()).toEqual(expected);
  });

  it('agrees with the REST contract on every success status', () => {
    for (const name of LOBBY_COMMAND_NAMES) {
      expect(lobbyCommandRoutes[name].success.status, name).toBe(LOBBY_COMMANDS[name].status);
      expect(lobbyCommandRoutes[name].path, name).toBe(`/api/lobbies/:code/${name}`);
    }
  });

  it('refuses an unknown command type with 400', async () => {
    expect(await errorOf(runLobbyCommand(never, 'ABCDEF', 'tick', {}, ANONYMOUS))).toMatchObject({ status: 400 });
  });

  it.each([
    ['vote-map', {}, 'map: is required'],
    ['pick', { user_id: 'x' }, 'user_id: must be a number'],
    ['pick-slot', { team: 'green', index: 0 }, 'team: team must be "red" or "blu"'],
    ['report', { score_red: -1, score_blu: 0 }, 'score_red: must be 0 or more'],
    ['chat', { message: 'x'.repeat(501) }, 'message: must be at most 500 characters'],
    ['set-class', { class: 'archer' }, 'class: class must be one of'],
  ])('refuses a bad %s body with 400 naming the field', async (type, body, message) => {
    const error = await errorOf(runLobbyCommand(never, 'ABCDEF', type, body, ANONYMOUS));
    expect(error?.status).toBe(400);
    expect(error?.error).toContain(message);
  });

  it('maps a missing login to 401', () => {
    expect(clientErrorOf(new UnauthorizedError())).toEqual({ status: 401, error: 'login required' });
  });
});
