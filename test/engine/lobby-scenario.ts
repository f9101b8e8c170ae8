import { expect } from 'vitest';
import type { UserRecord } from '../../src/db/user-record';
import { FORMAT_SLOTS, type LobbyFormat } from '../../src/domain/lobby';
import type { LobbyDetail } from '../../schema/lobby';
import { callerOf, type EngineWorld } from './engine-harness';

export interface Gathered {
  code: string;
  host: UserRecord;
  users: UserRecord[];
}

export const playersFor = (format: LobbyFormat): number => FORMAT_SLOTS[format].length * 2;

/** A lobby with exactly enough players for its format, all in the pool; the host joined first. */
export async function gathered(w: EngineWorld, format: LobbyFormat = '6v6', extra = 0): Promise<Gathered> {
  const users = await w.users(playersFor(format) + extra, (i) => 1500 - i);
  const [host, ...others] = users;
  const { code } = await w.engine.create(callerOf(host), { format });
  for (const user of others) await w.engine.command(code, { type: 'join' }, callerOf(user));
  return { code, host, users };
}

export async function detailOf(w: EngineWorld, code: string): Promise<LobbyDetail> {
  const detail = await w.engine.detail(code);
  expect(detail).not.toBeNull();
  return detail!;
}

const byId = (users: UserRecord[], id: number): UserRecord => users.find((u) => u.id === id)!;

/** Host starts the draft; captains pick the first free agent in turn until both teams are full. */
export async function drafted(w: EngineWorld, g: Gathered): Promise<LobbyDetail> {
  await w.engine.command(g.code, { type: 'start-draft' }, callerOf(g.host));
  let lobby = await detailOf(w, g.code);
  while (lobby.phase === 'drafting') {
    const captain = byId(g.users, lobby.captains[lobby.turn!]!);
    await w.engine.command(g.code, { type: 'pick', userId: lobby.pool[0].id }, callerOf(captain));
    lobby = await detailOf(w, g.code);
  }
  return lobby;
}

export const seatedIds = (lobby: LobbyDetail): number[] =>
  [...lobby.teams.red, ...lobby.teams.blu].flatMap((slot) => (slot.user ? [slot.user.id] : []));

/** Everyone seated raises the ready flag. */
export async function allReady(w: EngineWorld, g: Gathered, except: number[] = []): Promise<LobbyDetail> {
  const lobby = await detailOf(w, g.code);
  for (const id of seatedIds(lobby)) {
    if (!except.includes(id)) await w.engine.command(g.code, { type: 'ready' }, callerOf(byId(g.users, id)));
  }
  return detailOf(w, g.code);
}

export async function live(w: EngineWorld, format: LobbyFormat = '6v6'): Promise<Gathered & { lobby: LobbyDetail }> {
  const g = await gathered(w, format);
  await drafted(w, g);
  const lobby = await allReady(w, g);
  expect(lobby.phase).toBe('live');
  return { ...g, lobby };
}
