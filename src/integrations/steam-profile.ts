import * as v from 'valibot';

/**
 * Profile name and avatar from Steam's Web API. The key travels in the query string because that
 * is Steam's protocol, so the request URL is a secret: never log it or put it in an error.
 */

const DEFAULT_TIMEOUT_MS = 3_000;

const PlayerSummariesSchema = v.object({
  response: v.object({
    players: v.array(
      v.object({
        steamid: v.string(),
        personaname: v.string(),
        avatarfull: v.optional(v.string()),
      }),
    ),
  }),
});

export interface PlayerSummary {
  username: string;
  avatarUrl: string | null;
}

export interface FetchPlayerSummaryOptions {
  apiUrl: string;
  apiKey: string;
  platformId: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** The player's public name and full-size avatar, or null on any failure (login goes on with a neutral name). */
export async function fetchPlayerSummary(options: FetchPlayerSummaryOptions): Promise<PlayerSummary | null> {
  const url = new URL(`${options.apiUrl.replace(/\/+$/, '')}/ISteamUser/GetPlayerSummaries/v0002/`);
  url.searchParams.set('key', options.apiKey);
  url.searchParams.set('steamids', options.platformId);
  const doFetch = options.fetch ?? fetch;
  try {
    const response = await doFetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const parsed = v.safeParse(PlayerSummariesSchema, await response.json());
    if (!parsed.success) return null;
    const player = parsed.output.response.players.find((candidate) => candidate.steamid === options.platformId);
    if (player === undefined || player.personaname.trim() === '') return null;
    return { username: player.personaname, avatarUrl: player.avatarfull || null };
  } catch {
    return null;
  }
}
