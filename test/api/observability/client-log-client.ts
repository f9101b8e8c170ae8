import { afterAll, beforeAll } from 'vitest';
import { startTestServerWithLogin } from '../../support/login';
import { adminSideOn, type AdminWorld } from '../admin/admin-fixtures';
import { nextPlatformId } from '../lobby/lobby-client';

let addressCounter = 0;

/** A client address of its own per call (the server trusts 127.0.0.1 as a proxy), so tests do not share a rate budget. */
export function nextAddress(): string {
  addressCounter += 1;
  return `198.18.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

export interface SendOptions {
  address?: string;
  cookie?: string;
  contentType?: string;
  origin?: string;
  userAgent?: string;
}

export const entry = (overrides: Record<string, unknown> = {}) => ({ level: 'error', message: 'socket reconnect failed', at: new Date().toISOString(), source: 'web', ...overrides });

/** POST /api/logs/client with a raw body (a string is sent as is), as a browser or beacon would. */
export async function sendLogs(url: string, body: unknown, options: SendOptions = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? 'application/json',
    'x-forwarded-for': options.address ?? nextAddress(),
    'user-agent': options.userAgent ?? 'league-tests/1.0',
  };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin) headers.origin = options.origin;
  const response = await fetch(`${url}/api/logs/client`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** A test server (client address from X-Forwarded-For via a trusted 127.0.0.1) with a listed admin holding a key. */
export async function startLogWorld(env: Record<string, string> = {}): Promise<AdminWorld> {
  const adminPlatformId = nextPlatformId();
  const server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: adminPlatformId, TRUST_PROXY: '127.0.0.1', ...env });
  return { server, ...(await adminSideOn(server, adminPlatformId)) };
}

/** A log world started before the enclosing describe's tests and closed after them; read its fields inside tests. */
export function useLogWorld(env: Record<string, string> = {}): { world: AdminWorld; url: string } {
  const holder = {} as { world: AdminWorld; url: string };
  beforeAll(async () => {
    holder.world = await startLogWorld(env);
    holder.url = holder.world.server.url;
  }, 60_000);
  afterAll(() => holder.world?.server.close());
  return holder;
}
