import type { LobbyDetail } from '../../../schema/lobby';

export interface RestAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** One JSON request as a browser or bot would send it. */
export async function rest<T = Record<string, unknown>>(
  url: string,
  method: string,
  path: string,
  options: { cookie?: string; token?: string; body?: unknown } = {},
): Promise<RestAnswer<T>> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
}

/** POST /api/lobbies/ as `cookie`'s user; the smallest format unless told otherwise. */
export async function createLobby(url: string, cookie: string, body: Record<string, unknown> = {}): Promise<LobbyDetail> {
  const answer = await rest<{ code: string; lobby: LobbyDetail }>(url, 'POST', '/api/lobbies/', {
    cookie,
    body: { format: 'ultiduo', name: 'realtime test', ...body },
  });
  if (answer.status !== 200) throw new Error(`creating a lobby answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.lobby;
}

export function lobbyCommand(url: string, code: string, type: string, cookie: string, body?: unknown): Promise<RestAnswer> {
  return rest(url, 'POST', `/api/lobbies/${code}/${type}`, { cookie, body: body ?? {} });
}
