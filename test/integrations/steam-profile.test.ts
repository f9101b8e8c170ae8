import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPlayerSummary } from '../../src/integrations/steam-profile';
import { startFakeSteamApi, type FakeSteamApi } from '../fakes/fake-steam-api';

const API_KEY = 'TESTKEY0123456789ABCDEF0123456789';
const PLATFORM_ID = '76561197960287930';
const AVATAR = 'https://avatars.steamstatic.com/0123456789abcdef0123456789abcdef01234567_full.jpg';

let api: FakeSteamApi;

beforeAll(async () => {
  api = await startFakeSteamApi({ apiKey: API_KEY, profiles: { [PLATFORM_ID]: { personaname: 'Rabscuttle', avatarfull: AVATAR } } });
});
afterAll(() => api.close());

describe('fetchPlayerSummary', () => {
  it('reads the persona name and full-size avatar of the player', async () => {
    const summary = await fetchPlayerSummary({ apiUrl: api.url, apiKey: API_KEY, platformId: PLATFORM_ID });

    expect(summary).toEqual({ username: 'Rabscuttle', avatarUrl: AVATAR });
  });

  it('gives null when the key is refused', async () => {
    expect(await fetchPlayerSummary({ apiUrl: api.url, apiKey: 'wrong', platformId: PLATFORM_ID })).toBeNull();
  });

  it('gives null for a player the API does not return', async () => {
    expect(await fetchPlayerSummary({ apiUrl: api.url, apiKey: API_KEY, platformId: '76561198999999999' })).toBeNull();
  });

  it('gives null when the API cannot be reached', async () => {
    const gone = await startFakeSteamApi({ apiKey: API_KEY });
    await gone.close();

    expect(await fetchPlayerSummary({ apiUrl: gone.url, apiKey: API_KEY, platformId: PLATFORM_ID })).toBeNull();
  });

  it('gives null when the API answers too slowly', async () => {
    const slow = await startFakeSteamApi({ apiKey: API_KEY, profiles: { [PLATFORM_ID]: { personaname: 'Rabscuttle' } } });
    slow.setDelay(1_000);
    try {
      expect(await fetchPlayerSummary({ apiUrl: slow.url, apiKey: API_KEY, platformId: PLATFORM_ID, timeoutMs: 100 })).toBeNull();
    } finally {
      await slow.close();
    }
  });

  it('gives null when the answer is not the GetPlayerSummaries shape', async () => {
    const odd: typeof fetch = async () => Response.json({ players: [{ steamid: PLATFORM_ID, personaname: 'x' }] });

    expect(await fetchPlayerSummary({ apiUrl: api.url, apiKey: API_KEY, platformId: PLATFORM_ID, fetch: odd })).toBeNull();
  });

  it('asks the documented Steam path with the key and the id in the query', async () => {
    let asked: URL | undefined;
    const recording: typeof fetch = async (input) => {
      asked = new URL(String(input));
      return Response.json({ response: { players: [] } });
    };

    await fetchPlayerSummary({ apiUrl: 'https://api.steampowered.com/', apiKey: API_KEY, platformId: PLATFORM_ID, fetch: recording });

    expect(asked?.origin + (asked?.pathname ?? '')).toBe('https://api.steampowered.com/ISteamUser/GetPlayerSummaries/v0002/');
    expect(asked?.searchParams.get('key')).toBe(API_KEY);
    expect(asked?.searchParams.get('steamids')).toBe(PLATFORM_ID);
  });
});
