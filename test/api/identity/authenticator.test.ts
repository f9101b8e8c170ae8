import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../src/db/user-record';
import { AnswerTrail } from '../../../src/door/answer-trail';
import { HttpError } from '../../../src/door/http-refusal';
import { presentedFromHeaders, type PresentedRequest } from '../../../src/door/presented-request';
import { createAuthenticator, type RouteRule } from '../../../src/identity/authenticator';
import { hashApiKey } from '../../../src/domain/keys/api-key-format';
import { KeyAuditLog } from '../../../src/identity/key-audit-log';
import { KeyRateLimit } from '../../../src/identity/key-rate-limit';
import { SessionStore } from '../../../src/identity/session-store';
import { MemoryLiveStore } from '../../../src/live/memory-live-store';

/**
 * The credential check without HTTP around it: the plugin secret (no plugin route exists yet to
 * reach over HTTP) and the socket handshake.
 */

const PLUGIN_SECRET = 'the-configured-plugin-secret';


const user: UserRecord = {
  id: 7, platformId: '76561198000000007', username: 'seven', avatarUrl: null, elo: 1000, matchesPlayed: 0, wins: 0, losses: 0,
  isAdmin: false, chatAccountId: null, chatUsername: null, customAvatarUrl: null, nameColor: null, profileFrame: null,
  createdAt: new Date(0), lastLoginAt: null, lastSeenAt: null,
};

const RAW_KEY = `svc_pk_${'k'.repeat(43)}`;
const storedKey = {
  id: 3, userId: user.id, kind: 'premium' as const, label: null, keyHash: hashApiKey(RAW_KEY), keyPrefix: RAW_KEY.slice(0, 12),
  createdAt: new Date(0), lastUsedAt: null, revokedAt: null,
};

function authenticatorWith(pluginSecret: string | undefined, premiumActive = false) {
  const live = new MemoryLiveStore();
  const sessions = new SessionStore(live, 'a-session-secret-of-at-least-32-chars', Date.now);
  const authenticator = createAuthenticator({
    sessions,
    users: { findById: async (id) => (id === user.id ? user : null) },
    keys: { findActiveByHash: async (hash) => (hash === storedKey.keyHash ? storedKey : null) },
    premium: { activeGrant: async () => (premiumActive ? {} : null) },
    pluginSecret,
    clock: Date.now,
    presence: { touch: () => undefined },
    rateLimit: new KeyRateLimit(live, Date.now),
    audit: new KeyAuditLog({ insertMany: async () => undefined }, 'secret'),
    publicUrl: 'http://localhost:8080',
  });
  return { authenticator, sessions };
}

const request = (headers: Record<string, string> = {}): PresentedRequest =>
  presentedFromHeaders(headers, { method: 'POST', path: '/api/servers/plugin/extend', target: '/api/servers/plugin/extend' }, '127.0.0.1');
const response = () => new AnswerTrail();
const pluginRoute: RouteRule = { auth: ['plugin'] };

async function statusOf(work: () => unknown): Promise<number> {
  try {
    await work();
    return 200;
  } catch (error) {
    return (error as HttpError).status;
  }
}

describe('the plugin secret', () => {
  it('lets the plugin in with the configured secret', async () => {
    const { authenticator } = authenticatorWith(PLUGIN_SECRET);
    const caller = await authenticator.authenticate(request({ 'x-svc-plugin-secret': PLUGIN_SECRET }), pluginRoute, response());
    expect(caller).toEqual({ kind: 'plugin', user: null });
  });

  it.each([
    ['a wrong secret', { 'x-svc-plugin-secret': 'the-configured-plugin-secreT' }],
    ['a prefix of the secret', { 'x-svc-plugin-secret': PLUGIN_SECRET.slice(0, -1) }],
    ['no secret', {}],
  ])('answers %s with 401', async (_name, headers) => {
    const { authenticator } = authenticatorWith(PLUGIN_SECRET);
    expect(await statusOf(() => authenticator.authenticate(request(headers), pluginRoute, response()))).toBe(401);
  });

  it('refuses every plugin call (401) when PLUGIN_SECRET is unset', async () => {
    const { authenticator } = authenticatorWith(undefined);
    expect(await statusOf(() => authenticator.authenticate(request({ 'x-svc-plugin-secret': '' }), pluginRoute, response()))).toBe(401);
    expect(await statusOf(() => authenticator.authenticate(request({ 'x-svc-plugin-secret': 'anything' }), pluginRoute, response()))).toBe(401);
  });

  it('is no credential on a session route', async () => {
    const { authenticator } = authenticatorWith(PLUGIN_SECRET);
    const status = await statusOf(() => authenticator.authenticate(request({ 'x-svc-plugin-secret': PLUGIN_SECRET }), { auth: ['session'] }, response()));
    expect(status).toBe(401);
  });
});

describe('the socket handshake', () => {
  it('is anonymous without a credential', async () => {
    const { authenticator } = authenticatorWith(undefined);
    expect(await authenticator.resolveSocketCredential({})).toEqual({ ok: true, caller: { kind: 'anonymous', user: null } });
  });

  it('is the session user with the session cookie', async () => {
    const { authenticator, sessions } = authenticatorWith(undefined);
    const { cookieValue, session } = await sessions.create(user.id);
    const result = await authenticator.resolveSocketCredential({ cookieHeader: `other=1; league_session=${cookieValue}` });
    expect(result).toEqual({ ok: true, caller: { kind: 'session', user, sessionId: session.id } });
  });

  it('is anonymous with a forged cookie', async () => {
    const { authenticator } = authenticatorWith(undefined);
    const result = await authenticator.resolveSocketCredential({ cookieHeader: 'league_session=forged.value' });
    expect(result).toEqual({ ok: true, caller: { kind: 'anonymous', user: null } });
  });

  it('is refused with 401 for a token that is no valid key', async () => {
    const { authenticator } = authenticatorWith(undefined);
    expect(await authenticator.resolveSocketCredential({ token: `svc_pk_${'x'.repeat(43)}` })).toMatchObject({ ok: false, status: 401 });
    expect(await authenticator.resolveSocketCredential({ token: 'nonsense' })).toMatchObject({ ok: false, status: 401 });
  });

  it('is the key and its account with a premium key as auth.token', async () => {
    const { authenticator } = authenticatorWith(undefined, true);
    expect(await authenticator.resolveSocketCredential({ token: RAW_KEY })).toEqual({
      ok: true,
      caller: { kind: 'key', keyKind: 'premium', keyId: storedKey.id, user },
    });
  });

  it('is refused with 403 for a premium key whose premium lapsed', async () => {
    const { authenticator } = authenticatorWith(undefined, false);
    expect(await authenticator.resolveSocketCredential({ token: RAW_KEY })).toMatchObject({ ok: false, status: 403 });
  });
});
