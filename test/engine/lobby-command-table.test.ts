import { describe, expect, it } from 'vitest';
import { CLIENT_COMMAND_TYPES } from '../../src/domain/lobby';
import { toHttpError } from '../../rest/error-mapping';
import { UnauthorizedError } from '../../src/engine/engine-errors';
import { runLobbyCommand } from '../../src/engine/lobby-command-table';
import type { LobbyEngine } from '../../src/engine/lobby-engine';
import { ANONYMOUS } from '../../src/identity/caller';
import { NoBody, parseInput } from '../../schema/parse-input';
import { LOBBY_COMMAND_NAMES, lobbyCommandContracts, lobbyRoutes } from '../../schema/routes/lobby-routes';
import type { RouteContract } from '../../schema/route-contract';

const contractOf = (name: (typeof LOBBY_COMMAND_NAMES)[number]) => lobbyCommandContracts[name] as RouteContract;

describe('lobby commands', () => {
  it('are declared once, for every client command and chat', () => {
    expect([...LOBBY_COMMAND_NAMES].sort()).toEqual([...CLIENT_COMMAND_TYPES, 'chat'].sort());
  });

  it('are each a session route: POST /api/lobbies/:code/<name>, cancel the DELETE of the lobby', () => {
    for (const name of LOBBY_COMMAND_NAMES) {
      const route = contractOf(name);
      expect(route.auth, name).toEqual(['session']);
      if (name === 'cancel') expect(route).toBe(lobbyRoutes.cancel);
      else expect([route.method, route.path], name).toEqual(['post', `/api/lobbies/:code/${name}`]);
    }
  });

  it.each([
    ['vote-map', {}, 'map: is required'],
    ['pick', { user_id: 'x' }, 'user_id: must be a number'],
    ['pick-slot', { team: 'green', index: 0 }, 'team: team must be "red" or "blu"'],
    ['report', { score_red: -1, score_blu: 0 }, 'score_red: must be 0 or more'],
    ['chat', { message: 'x'.repeat(501) }, 'message: must be at most 500 characters'],
    ['set-class', { class: 'archer' }, 'class: class must be one of'],
  ] as const)('refuse a bad %s body by its contract, naming the field', (name, body, message) => {
    const parsed = parseInput(contractOf(name).body ?? NoBody, body, 'body');
    expect(parsed.ok ? 'ok' : parsed.message).toContain(message);
  });

  it('run in the engine with the body as parsed, and refuse a missing login with 401', async () => {
    const engine = { command: () => Promise.reject(new UnauthorizedError()) } as unknown as LobbyEngine;
    const error = await runLobbyCommand(engine, 'ABCDEF', 'join', {}, ANONYMOUS).then(() => null, (e: unknown) => toHttpError(e));
    expect(error).toMatchObject({ status: 401, message: 'login required' });
  });
});
