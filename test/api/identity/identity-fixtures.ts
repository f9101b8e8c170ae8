import { PremiumRepository } from '../../../src/db/premium-repository';
import type { TestServer } from '../../support/test-server';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A server clock the test can move forward (premium lapsing is a matter of time). */
export function movableClock() {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    advanceDays(days: number) {
      offsetMs += days * DAY_MS;
    },
    advanceMs(ms: number) {
      offsetMs += ms;
    },
  };
}

/** A 30-day premium grant written straight through the premium repository, from the server's now. */
export async function grantPremium(server: TestServer, userId: number, now: number, days = 30): Promise<void> {
  await new PremiumRepository(server.server.db).grantExtending({
    userId,
    plan: '3m',
    source: 'test',
    now: new Date(now),
    endFrom: (start) => new Date(start.getTime() + days * DAY_MS),
  });
}

export async function setAdmin(server: TestServer, userId: number, isAdmin: boolean): Promise<void> {
  await server.server.db.em().execute('update users set is_admin = ? where id = ?', [isAdmin, userId]);
}

export interface Call {
  method?: string;
  cookie?: string;
  bearer?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export async function call(server: { url: string }, path: string, options: Call = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${server.url}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
}

/** Issues a key over HTTP with a session cookie and returns the raw key and its id. */
export async function issueKey(
  server: { url: string },
  cookie: string,
  kind: 'premium' | 'admin',
  body: Record<string, unknown> = {},
): Promise<{ id: number; raw: string }> {
  const path = kind === 'premium' ? '/api/premium/api-keys' : '/api/admin/api-keys';
  const response = await call(server, path, { method: 'POST', cookie, body });
  if (response.status !== 201) throw new Error(`issuing a ${kind} key answered ${response.status}: ${await response.text()}`);
  const issued = (await response.json()) as { id: number; raw_key: string };
  return { id: issued.id, raw: issued.raw_key };
}
