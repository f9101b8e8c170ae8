import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  buildLoginRedirect,
  OPENID_NS,
  verifyAssertion,
  type AssertionFailure,
  type VerifyAssertionOptions,
} from '../../src/integrations/steam-openid';
import { startFakeSteamOpenId, type FakeSteamOpenId } from '../fakes/fake-steam-openid';

const PLATFORM_ID = '76561197960287930';
const OTHER_PLATFORM_ID = '76561198000000001';
const SITE = 'http://localhost:8080';
const RETURN_TO = `${SITE}/auth/platform/callback`;
const MINUTE = 60_000;

let provider: FakeSteamOpenId;

beforeAll(async () => {
  provider = await startFakeSteamOpenId();
});
afterAll(() => provider.close());

function freshNonceStore(): (nonce: string) => Promise<boolean> {
  const seen = new Set<string>();
  return async (nonce) => {
    if (seen.has(nonce)) return false;
    seen.add(nonce);
    return true;
  };
}

function verify(query: URLSearchParams | Record<string, string>, overrides: Partial<VerifyAssertionOptions> = {}) {
  return verifyAssertion({
    providerUrl: provider.url,
    expectedReturnTo: RETURN_TO,
    query,
    claimNonce: freshNonceStore(),
    // The fake provider stamps its nonces with the real time; a test of skew passes its own `now`.
    now: Date.now(),
    ...overrides,
  });
}

async function loginThroughProvider(returnTo = RETURN_TO): Promise<URLSearchParams> {
  const response = await fetch(buildLoginRedirect({ providerUrl: provider.url, returnTo, realm: SITE }), {
    redirect: 'manual',
  });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location') ?? '').searchParams;
}

function tampered(change: (fields: URLSearchParams) => void): URLSearchParams {
  const fields = provider.assertionFor(PLATFORM_ID, RETURN_TO);
  change(fields);
  return fields;
}

describe('buildLoginRedirect', () => {
  it('asks the provider for checkid_setup and lets it choose the identity', () => {
    const url = buildLoginRedirect({ providerUrl: provider.url, returnTo: RETURN_TO, realm: SITE });

    expect(`${url.origin}${url.pathname}`).toBe(provider.url);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'openid.ns': OPENID_NS,
      'openid.mode': 'checkid_setup',
      'openid.return_to': RETURN_TO,
      'openid.realm': SITE,
      'openid.identity': 'http://specs.openid.net/auth/2.0/identifier_select',
      'openid.claimed_id': 'http://specs.openid.net/auth/2.0/identifier_select',
    });
  });
});

describe('verifyAssertion', () => {
  it('a login through the provider yields the 17-digit platform id', async () => {
    provider.nextLogin(PLATFORM_ID);
    const callbackQuery = await loginThroughProvider();

    expect(await verify(callbackQuery)).toEqual({ ok: true, platformId: PLATFORM_ID });
  });

  it('accepts the callback query as a plain object', async () => {
    const fields = Object.fromEntries(provider.assertionFor(PLATFORM_ID, RETURN_TO));

    expect(await verify(fields)).toEqual({ ok: true, platformId: PLATFORM_ID });
  });

  it('a return_to carrying our state verifies when the callback brings the same state back', async () => {
    const returnTo = `${RETURN_TO}?state=abc123`;
    provider.nextLogin(PLATFORM_ID);
    const callbackQuery = await loginThroughProvider(returnTo);

    expect(await verify(callbackQuery, { expectedReturnTo: returnTo })).toEqual({ ok: true, platformId: PLATFORM_ID });
  });

  it('a callback whose state differs from the signed return_to is refused', async () => {
    const returnTo = `${RETURN_TO}?state=abc123`;
    const fields = provider.assertionFor(PLATFORM_ID, returnTo);
    fields.set('state', 'other');

    expect(await verify(fields, { expectedReturnTo: returnTo })).toEqual({ ok: false, reason: 'bad_return_to' });
  });

  it('a return_to without the state we sent is refused', async () => {
    const fields = provider.assertionFor(PLATFORM_ID, RETURN_TO);

    expect(await verify(fields, { expectedReturnTo: `${RETURN_TO}?state=abc123` })).toEqual({
      ok: false,
      reason: 'bad_return_to',
    });
  });

  it('a login the user cancelled is refused as cancelled', async () => {
    const callbackQuery = await loginThroughProvider();

    expect(await verify(callbackQuery)).toEqual({ ok: false, reason: 'cancelled' });
  });

  const tamperings: Array<[string, (fields: URLSearchParams) => void, AssertionFailure]> = [
    ['a mode other than id_res', (f) => f.set('openid.mode', 'setup_needed'), 'bad_mode'],
    ['a missing OpenID 2.0 namespace', (f) => f.delete('openid.ns'), 'bad_mode'],
    ['a return_to on another site', (f) => f.set('openid.return_to', 'https://evil.example/auth/platform/callback'), 'bad_return_to'],
    ['a return_to on another path', (f) => f.set('openid.return_to', `${SITE}/elsewhere`), 'bad_return_to'],
    ['an op_endpoint of another provider', (f) => f.set('openid.op_endpoint', 'https://evil.example/openid/login'), 'bad_endpoint'],
    ['a claimed_id that differs from identity', (f) => f.set('openid.claimed_id', `https://steamcommunity.com/openid/id/${OTHER_PLATFORM_ID}`), 'bad_claimed_id'],
    [
      'a claimed_id outside steamcommunity.com',
      (f) => {
        f.set('openid.claimed_id', `https://evil.example/openid/id/${PLATFORM_ID}`);
        f.set('openid.identity', `https://evil.example/openid/id/${PLATFORM_ID}`);
      },
      'bad_claimed_id',
    ],
    [
      'a claimed_id without a 17-digit id',
      (f) => {
        f.set('openid.claimed_id', 'https://steamcommunity.com/openid/id/1234');
        f.set('openid.identity', 'https://steamcommunity.com/openid/id/1234');
      },
      'bad_claimed_id',
    ],
    [
      'a consistent claimed_id and identity for another account',
      (f) => {
        f.set('openid.claimed_id', `https://steamcommunity.com/openid/id/${OTHER_PLATFORM_ID}`);
        f.set('openid.identity', `https://steamcommunity.com/openid/id/${OTHER_PLATFORM_ID}`);
      },
      'not_verified',
    ],
    ['an altered signature', (f) => f.set('openid.sig', Buffer.alloc(32, 7).toString('base64')), 'not_verified'],
    ['a missing signature', (f) => f.delete('openid.sig'), 'not_verified'],
    ['a signed list that leaves out return_to', (f) => f.set('openid.signed', 'op_endpoint,claimed_id,identity,response_nonce,assoc_handle'), 'not_verified'],
    ['a malformed response_nonce', (f) => f.set('openid.response_nonce', 'yesterday'), 'not_verified'],
  ];

  it.each(tamperings)('%s is refused', async (_name, change, reason) => {
    expect(await verify(tampered(change))).toEqual({ ok: false, reason });
  });

  it('does not ask the provider when a local check already fails', async () => {
    const before = provider.checkAuthenticationCount;

    await verify(tampered((f) => f.set('openid.op_endpoint', 'https://evil.example/openid/login')));

    expect(provider.checkAuthenticationCount).toBe(before);
  });

  it('does not claim the nonce when the provider does not vouch for the assertion', async () => {
    const claimNonce = vi.fn(async () => true);

    await verify(tampered((f) => f.set('openid.sig', Buffer.alloc(32).toString('base64'))), { claimNonce });

    expect(claimNonce).not.toHaveBeenCalled();
  });

  it('a replayed assertion is refused as replayed_nonce', async () => {
    const claimNonce = freshNonceStore();
    const fields = provider.assertionFor(PLATFORM_ID, RETURN_TO);

    expect(await verify(fields, { claimNonce })).toEqual({ ok: true, platformId: PLATFORM_ID });
    expect(await verify(fields, { claimNonce })).toEqual({ ok: false, reason: 'replayed_nonce' });
  });

  it.each([
    { when: 'six minutes ago', offset: -6 * MINUTE, expected: { ok: false, reason: 'stale_nonce' } },
    { when: 'six minutes in the future', offset: 6 * MINUTE, expected: { ok: false, reason: 'stale_nonce' } },
    { when: 'four minutes ago', offset: -4 * MINUTE, expected: { ok: true, platformId: PLATFORM_ID } },
  ])('an assertion issued $when gives $expected', async ({ offset, expected }) => {
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    const fields = provider.assertionFor(PLATFORM_ID, RETURN_TO, { issuedAt: new Date(now + offset) });

    expect(await verify(fields, { now })).toEqual(expected);
  });

  it('a provider that cannot be reached gives provider_unreachable', async () => {
    const gone = await startFakeSteamOpenId();
    const fields = gone.assertionFor(PLATFORM_ID, RETURN_TO);
    await gone.close();

    expect(await verify(fields, { providerUrl: gone.url })).toEqual({ ok: false, reason: 'provider_unreachable' });
  });

  it('a provider answering with a server error gives provider_unreachable', async () => {
    const failing: typeof fetch = async () => new Response('maintenance', { status: 503 });

    expect(await verify(provider.assertionFor(PLATFORM_ID, RETURN_TO), { fetch: failing })).toEqual({
      ok: false,
      reason: 'provider_unreachable',
    });
  });

  it('sends every openid field back with mode check_authentication as a form', async () => {
    const fields = provider.assertionFor(PLATFORM_ID, RETURN_TO);
    let sent: { body: URLSearchParams; contentType: string | null } | undefined;
    const recording: typeof fetch = async (_url, init) => {
      sent = { body: new URLSearchParams(String(init?.body)), contentType: new Headers(init?.headers).get('content-type') };
      return new Response(`ns:${OPENID_NS}\nis_valid:true\n`);
    };

    await verify(fields, { fetch: recording });

    const expected = new URLSearchParams(fields);
    expected.set('openid.mode', 'check_authentication');
    expect(sent?.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(sent?.body ?? [])).toEqual(Object.fromEntries(expected));
  });
});
