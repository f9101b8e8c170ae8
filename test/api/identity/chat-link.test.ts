import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../../fakes/fake-discord';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';

const CLIENT = { clientId: 'league-app', clientSecret: 'discord-client-secret-for-tests' };
const ALICE = '76561198000000101';
const BOB = '76561198000000102';

let server: TestServerWithLogin;
let discord: FakeDiscord;

beforeAll(async () => {
  discord = await startFakeDiscord(CLIENT);
  server = await startTestServerWithLogin({
    DISCORD_CLIENT_ID: CLIENT.clientId,
    DISCORD_CLIENT_SECRET: CLIENT.clientSecret,
    DISCORD_AUTHORIZE_URL: discord.authorizeUrl,
    DISCORD_TOKEN_URL: discord.tokenUrl,
    DISCORD_API_URL: discord.apiUrl,
  });
});
afterAll(async () => {
  await server?.close();
  await discord?.close();
});

const get = (url: string, cookie?: string) => fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });

/** GET /auth/chat, through the fake's authorize page, back to the callback on the test server. */
async function linkThroughProvider(cookie: string, callbackCookie = cookie): Promise<string> {
  const start = await get(`${server.url}/auth/chat`, cookie);
  expect(start.status).toBe(302);
  const back = new URL((await get(start.headers.get('location')!)).headers.get('location')!);
  const answer = await get(`${server.url}${back.pathname}${back.search}`, callbackCookie);
  expect(answer.status).toBe(302);
  return answer.headers.get('location')!;
}

const me = async (cookie: string) => (await (await get(`${server.url}/auth/me`, cookie)).json()) as Record<string, unknown>;

describe('linking a chat account', () => {
  it('sends the browser to the configured authorize URL with PKCE and a state', async () => {
    const { cookie } = await server.login(ALICE);
    const response = await get(`${server.url}/auth/chat`, cookie);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(discord.authorizeUrl);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('redirect_uri')).toBe('http://localhost:8080/auth/chat/callback');
  });

  it('needs a session: 401 {error} otherwise', async () => {
    const response = await get(`${server.url}/auth/chat`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });

  it('stores the chat account id and name on the user and lands on /?chat_linked=1', async () => {
    const { cookie } = await server.login(ALICE);
    discord.nextUser({ id: '900000000000000001', username: 'alice', global_name: 'Alice A' });
    expect(await linkThroughProvider(cookie)).toBe('/?chat_linked=1');
    expect(await me(cookie)).toMatchObject({ chat_account_id: '900000000000000001', chat_username: 'Alice A' });
  });

  it('refuses a chat account already linked to another user', async () => {
    const alice = await server.login(ALICE);
    discord.nextUser({ id: '900000000000000002', username: 'shared' });
    expect(await linkThroughProvider(alice.cookie)).toBe('/?chat_linked=1');
    const bob = await server.login(BOB);
    discord.nextUser({ id: '900000000000000002', username: 'shared' });
    expect(await linkThroughProvider(bob.cookie)).toBe('/?chat_error=already_linked');
    expect(await me(bob.cookie)).toMatchObject({ chat_account_id: null });
  });

  it('reports a denied consent as chat_error=denied', async () => {
    const { cookie } = await server.login(ALICE);
    expect(await linkThroughProvider(cookie)).toBe('/?chat_error=denied');
  });

  it('links nothing when the callback arrives in another user\'s browser', async () => {
    const alice = await server.login(ALICE);
    const bob = await server.login(BOB);
    discord.nextUser({ id: '900000000000000003', username: 'planted' });
    expect(await linkThroughProvider(alice.cookie, bob.cookie)).toBe('/?chat_error=session_mismatch');
    expect(await me(bob.cookie)).toMatchObject({ chat_account_id: null });
  });

  it('accepts a state only once', async () => {
    const { cookie } = await server.login(BOB);
    discord.nextUser({ id: '900000000000000004', username: 'bob' });
    const start = await get(`${server.url}/auth/chat`, cookie);
    const back = new URL((await get(start.headers.get('location')!)).headers.get('location')!);
    const callback = `${server.url}${back.pathname}${back.search}`;
    expect((await get(callback, cookie)).headers.get('location')).toBe('/?chat_linked=1');
    expect((await get(callback, cookie)).headers.get('location')).toBe('/?chat_error=bad_state');
  });

  it('refuses a callback with a state it never issued', async () => {
    const { cookie } = await server.login(BOB);
    const response = await get(`${server.url}/auth/chat/callback?code=abc&state=made-up`, cookie);
    expect(response.headers.get('location')).toBe('/?chat_error=bad_state');
  });

  it('unlinks with POST /auth/chat/unlink', async () => {
    const { cookie } = await server.login(ALICE);
    discord.nextUser({ id: '900000000000000005', username: 'alice2' });
    expect(await linkThroughProvider(cookie)).toBe('/?chat_linked=1');
    const response = await fetch(`${server.url}/auth/chat/unlink`, { method: 'POST', headers: { cookie } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(await me(cookie)).toMatchObject({ chat_account_id: null, chat_username: null });
  });

  it('answers 401 to an unlink without a session', async () => {
    expect((await fetch(`${server.url}/auth/chat/unlink`, { method: 'POST' })).status).toBe(401);
  });
});

describe('without a chat app configured', () => {
  let bare: TestServerWithLogin;
  beforeAll(async () => {
    bare = await startTestServerWithLogin();
  });
  afterAll(async () => bare?.close());

  it('answers /auth/chat with 503 {error}', async () => {
    const { cookie } = await bare.login(ALICE);
    const response = await get(`${bare.url}/auth/chat`, cookie);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
});
