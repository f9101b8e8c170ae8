import { detailHead, detailTail, poolView, readyChangesAt, teamsView, type LobbyState } from '../domain/lobby';

interface KeptTeams {
  profiles: LobbyState['profiles'];
  /** The times between which the teams' ready flags, and so their JSON, stay as rendered. */
  from: number;
  until: number;
  json: string;
}

interface KeptPool {
  profiles: LobbyState['profiles'];
  json: string;
}

/**
 * The JSON of a `lobby:update` payload (`{code, version, lobby}`), exactly as JSON.stringify of
 * lobbyDetail writes it, keeping the JSON of the teams and the pool (players' profiles: most of a
 * lobby's 4 KB) while the state parts they come from are the very same objects. The rules share
 * every part a command left alone with the state before (see applyLobbyCommand), so a vote, the
 * commonest command, serializes its few changed bytes and splices in the rest. Kept by identity
 * in weak maps: a lobby state nobody holds any more takes its JSON with it.
 */
export class LobbyUpdateRenderer {
  readonly #teams = new WeakMap<LobbyState['teams'], KeptTeams>();
  readonly #pools = new WeakMap<LobbyState['pool'], KeptPool>();

  /** Bound: handed on as an UpdateJson (see lobbyUpdates). */
  readonly json = (state: LobbyState, now: number): string => {
    const head = JSON.stringify(detailHead(state));
    const tail = JSON.stringify(detailTail(state));
    return `{"code":${JSON.stringify(state.code)},"version":${state.version},"lobby":${head.slice(0, -1)},"teams":${this.#teamsJson(state, now)},"pool":${this.#poolJson(state)},${tail.slice(1)}}`;
  };

  #teamsJson(state: LobbyState, now: number): string {
    const kept = this.#teams.get(state.teams);
    if (kept && kept.profiles === state.profiles && now >= kept.from && now < kept.until) return kept.json;
    const json = JSON.stringify(teamsView(state, now));
    this.#teams.set(state.teams, { profiles: state.profiles, from: now, until: readyChangesAt(state, now), json });
    return json;
  }

  #poolJson(state: LobbyState): string {
    const kept = this.#pools.get(state.pool);
    if (kept && kept.profiles === state.profiles) return kept.json;
    const json = JSON.stringify(poolView(state));
    this.#pools.set(state.pool, { profiles: state.profiles, json });
    return json;
  }
}
