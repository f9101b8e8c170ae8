import { expect } from 'vitest';
import type { LobbyDetail } from '../../../schema/lobby';
import type { UserSelf } from '../../../schema/identity';

export interface Answer<T = any> {
  status: number;
  body: T;
}

/** One logged-in browser: its cookie on every request to one server (or another sharing the stores). */
export class Player {
  constructor(
    readonly url: string,
    readonly cookie: string,
    readonly user: UserSelf,
  ) {}

  get id(): number {
    return this.user.id;
  }

  on(url: string): Player {
    return new Player(url, this.cookie, this.user);
  }

  async send<T = any>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { cookie: this.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  post<T = any>(path: string, body?: unknown): Promise<Answer<T>> {
    return this.send<T>('POST', path, body ?? {});
  }

  get<T = any>(path: string): Promise<Answer<T>> {
    return this.send<T>('GET', path);
  }

  /** A lobby command that must succeed with `status`. */
  async command(code: string, type: string, body: unknown = {}, status = 200): Promise<any> {
    const answer = await this.post(`/api/lobbies/${code}/${type}`, body);
    expect(answer, `${type} by user ${this.id}`).toMatchObject({ status });
    return answer.body;
  }
}

export async function lobbyAt(url: string, code: string): Promise<LobbyDetail> {
  const response = await fetch(`${url}/api/lobbies/${code}`);
  expect(response.status).toBe(200);
  return (await response.json()) as LobbyDetail;
}

export const seatedIds = (lobby: LobbyDetail): number[] =>
  [...lobby.teams.red, ...lobby.teams.blu].flatMap((slot) => (slot.user ? [slot.user.id] : []));

let platformCounter = 0;
/** Distinct 17-digit platform ids per test process. */
export function nextPlatformId(): string {
  platformCounter += 1;
  return `76561198${String(process.pid % 10_000).padStart(4, '0')}${String(platformCounter).padStart(5, '0')}`;
}

/** Captains pick free agents in turn (the first of the pool) until the draft is over. */
export async function draftAll(url: string, code: string, players: Player[], pickFrom?: (lobby: LobbyDetail) => number): Promise<LobbyDetail> {
  let lobby = await lobbyAt(url, code);
  while (lobby.phase === 'drafting') {
    const captain = players.find((p) => p.id === lobby.captains[lobby.turn!])!;
    await captain.command(code, 'pick', { user_id: pickFrom ? pickFrom(lobby) : lobby.pool[0].id });
    lobby = await lobbyAt(url, code);
  }
  return lobby;
}
