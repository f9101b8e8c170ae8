import { listenLocally, sendJson, sendText, type LocalServer } from './local-http-server';

/**
 * Steam's Web API, only ISteamUser/GetPlayerSummaries/v0002. As on Steam, a missing or wrong key
 * is a 403 HTML page, and unknown ids are simply left out of `players`.
 */

export interface FakeSteamProfile {
  personaname: string;
  avatarfull?: string;
}

export interface FakeSteamApiOptions {
  apiKey: string;
  profiles?: Record<string, FakeSteamProfile>;
}

export interface FakeSteamApi extends LocalServer {
  /** The API base, the value of STEAM_API_URL. */
  url: string;
  setProfile(platformId: string, profile: FakeSteamProfile): void;
  /** Holds every answer back this long, to exercise the caller's timeout. */
  setDelay(ms: number): void;
  readonly requestCount: number;
}

const FORBIDDEN_PAGE =
  '<html><head><title>Forbidden</title></head><body><h1>Forbidden</h1>Access is denied. Retrying will not help. Please verify your <pre>key=</pre> parameter.</body></html>';

const SUMMARY_PATHS = new Set(['/ISteamUser/GetPlayerSummaries/v0002/', '/ISteamUser/GetPlayerSummaries/v0002']);

export async function startFakeSteamApi(options: FakeSteamApiOptions): Promise<FakeSteamApi> {
  const profiles = new Map(Object.entries(options.profiles ?? {}));
  const pendingTimers = new Set<NodeJS.Timeout>();
  let delayMs = 0;
  let requestCount = 0;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        resolve();
      }, ms);
      pendingTimers.add(timer);
    });

  const server = await listenLocally(async (request, response, url) => {
    requestCount += 1;
    if (delayMs > 0) await wait(delayMs);
    if (request.method !== 'GET' || !SUMMARY_PATHS.has(url.pathname)) return sendText(response, 404, 'Not Found');
    if (url.searchParams.get('key') !== options.apiKey) return sendText(response, 403, FORBIDDEN_PAGE, 'text/html');
    const steamIds = url.searchParams.get('steamids');
    if (!steamIds) return sendText(response, 400, 'Required parameter steamids is missing', 'text/html');

    const players = steamIds.split(',').flatMap((steamid) => {
      const profile = profiles.get(steamid);
      if (profile === undefined) return [];
      const avatar = profile.avatarfull ?? 'https://avatars.steamstatic.com/fef49e7fa7e1997310d705b2a6158ff8dc1cdfeb_full.jpg';
      return [
        {
          steamid,
          communityvisibilitystate: 3,
          profilestate: 1,
          personaname: profile.personaname,
          profileurl: `https://steamcommunity.com/profiles/${steamid}/`,
          avatar: avatar.replace(/_full\.jpg$/, '.jpg'),
          avatarmedium: avatar.replace(/_full\.jpg$/, '_medium.jpg'),
          avatarfull: avatar,
          avatarhash: 'fef49e7fa7e1997310d705b2a6158ff8dc1cdfeb',
          personastate: 0,
          primaryclanid: '103582791429521408',
          timecreated: 1262304000,
          personastateflags: 0,
        },
      ];
    });
    return sendJson(response, 200, { response: { players } });
  });

  return {
    url: server.url,
    close: async () => {
      for (const timer of pendingTimers) clearTimeout(timer);
      await server.close();
    },
    setProfile: (platformId, profile) => void profiles.set(platformId, profile),
    setDelay: (ms) => {
      delayMs = ms;
    },
    get requestCount() {
      return requestCount;
    },
  };
}
