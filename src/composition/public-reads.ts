import type { LobbyEngine } from '../engine/lobby-engine';
import type { Presence } from '../identity/presence';
import { durablePublicSource } from '../public-reads/durable-public-source';
import { PublicReads } from '../public-reads/public-reads';
import { SerializedCache } from '../public-reads/serialized-cache';
import type { Repositories } from './repositories';

const PUBLIC_CACHE_MS = 30_000;

/** The public reads' cache, made first: the lobby area drops its topics on every instance. */
export const publicReadCache = (clock: () => number) => new SerializedCache(PUBLIC_CACHE_MS, 2_000, clock);

/** The public reads: durable figures from the database, open lobbies and the online count live. */
export function assemblePublicReads(input: {
  repos: Pick<Repositories, 'publicReads' | 'users'>;
  lobbies: Pick<LobbyEngine, 'summaries'>;
  presence: Presence;
  cache: SerializedCache;
  clock: () => number;
}): PublicReads {
  return new PublicReads(
    durablePublicSource(input.repos.publicReads, input.repos.users),
    { openLobbies: () => input.lobbies.summaries(), onlineCount: () => input.presence.countOnline() },
    input.cache,
    input.clock,
  );
}
