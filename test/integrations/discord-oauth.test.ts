import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChatLinkError,
  createChatLink,
  generateCodeVerifier,
  generateState,
  type ChatLinkConfig,
} from '../../src/integrations/discord-oauth';
import { startFakeDiscord, type FakeDiscord } from '../fakes/fake-discord';

const CLIENT_ID = '1234567890';
const CLIENT_SECRET = 'client-secret';
const REDIRECT_URI = 'http://localhost:8080/auth/chat/callback';
const USER = { id: '80351110224678912', username: 'nelly', global_name: 'Nelly' };

let discord: FakeDiscord;

beforeAll(async () => {
  discord = await startFakeDiscord({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
});
afterAll(() => discord.close());

function link(overrides: Partial<ChatLinkConfig> = {}) {
  return createChatLink({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    authorizeUrl: discord.authorizeUrl,
    tokenUrl: discord.tokenUrl,
    apiUrl: discord.apiUrl,
    redirectUri: REDIRECT_URI,
    ...overrides,
  });
}

/** Plays the browser: follows the authorize URL and returns the callback's query. */
async function authorize(url: URL): Promise<URLSearchParams> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  return location.searchParams;
}

async function codeFor(verifier: string): Promise<string> {
  discord.nextUser(USER);
  const callback = await authorize(link().authorizationUrl(generateState(), verifier));
  return callback.get('code') ?? '';
}

async function failureOf(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChatLinkError);
  return (error as ChatLinkError).reason;
}

describe('createChatLink', () => {
  it('the authorization URL asks for identify with an S256 challenge and our state', () => {
    const state = generateState();
    const url = link().authorizationUrl(state, generateCodeVerifier());

    expect(`${url.origin}${url.pathname}`).toBe(discord.authorizeUrl);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe('identify');
    expect(url.searchParams.get('state')).toBe(state);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('a link round-trips: authorize, code, exchange, user', async () => {
    const state = generateState();
    const verifier = generateCodeVerifier();
    discord.nextUser(USER);

    const callback = await authorize(link().authorizationUrl(state, verifier));
    expect(callback.get('state')).toBe(state);

    const user = await link().exchange(callback.get('code') ?? '', verifier);
    expect(user).toEqual({ id: USER.id, username: USER.username, globalName: USER.global_name });
  });

  it('a wrong code verifier is rejected', async () => {
    const code = await codeFor(generateCodeVerifier());

    expect(await failureOf(link().exchange(code, generateCodeVerifier()))).toBe('rejected');
  });

  it('a code cannot be redeemed twice', async () => {
    const verifier = generateCodeVerifier();
    const code = await codeFor(verifier);
    await link().exchange(code, verifier);

    expect(await failureOf(link().exchange(code, verifier))).toBe('rejected');
  });

  it('a wrong client secret is rejected', async () => {
    const verifier = generateCodeVerifier();
    const code = await codeFor(verifier);

    expect(await failureOf(link({ clientSecret: 'guess' }).exchange(code, verifier))).toBe('rejected');
  });

  it('a denied authorization comes back with an error and no code', async () => {
    const callback = await authorize(link().authorizationUrl(generateState(), generateCodeVerifier()));

    expect(callback.get('error')).toBe('access_denied');
    expect(callback.has('code')).toBe(false);
  });

  it('an unreachable token endpoint gives provider_unreachable', async () => {
    const gone = await startFakeDiscord({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    await gone.close();

    const failure = await failureOf(link({ tokenUrl: gone.tokenUrl }).exchange('code', generateCodeVerifier()));
    expect(failure).toBe('provider_unreachable');
  });

  it('a user endpoint refusing the token is rejected', async () => {
    const verifier = generateCodeVerifier();
    const code = await codeFor(verifier);
    const elsewhere = await startFakeDiscord({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    try {
      expect(await failureOf(link({ apiUrl: elsewhere.apiUrl }).exchange(code, verifier))).toBe('rejected');
    } finally {
      await elsewhere.close();
    }
  });
});
