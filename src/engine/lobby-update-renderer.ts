import { detailHead, detailTail, poolView, readyChangesAt, teamsView, type LobbyState } from '../domain/lobby';
import { deltaBody, wholeBody, type LobbyFields } from './lobby-update-fields';

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
 * The lobby feed's `lobby:update` bodies (see lobby-update-fields.ts), each field exactly as
 * JSON.stringify of lobbyDetail writes it, keeping the JSON of the teams and the pool (players'
 * profiles: most of a lobby's 4 KB) while the state parts they come from are the very same
 * objects. The rules share every part a command left alone with the state before (see
 * applyLobbyCommand), so a vote, the commonest command, serializes its few changed bytes.
 *
 * It also keeps, per state it rendered, the fields it wrote: an update whose state before is one
 * of them, one version older, goes out as a delta from exactly what the feed carried for that
 * version. A state before that this renderer did not write (read from the store, written by
 * another instance) gets a whole update. Kept by identity in weak maps: a lobby state nobody
 * holds any more takes its JSON with it.
 */
export class LobbyUpdateRenderer {
  readonly #teams = new WeakMap<LobbyState['teams'], KeptTeams>();
  readonly #pools = new WeakMap<LobbyState['pool'], KeptPool>();
  readonly #written = new WeakMap<LobbyState, string[]>();
  /** The detail's keys in its order, taken from the first render (the view's objects have fixed keys). */
  #names: string[] | null = null;

  /** Bound: handed on as an UpdateBody (see lobbyUpdates). */
  readonly body = (after: LobbyState, before: LobbyState | null, now: number): string => {
    const fields = this.fields(after, now);
    this.#written.set(after, fields.values);
    const base = before !== null && before.version === after.version - 1 ? this.#written.get(before) : undefined;
    return base ? deltaBody(fields, base) : wholeBody(fields);
  };

  /** The state's detail as fields, each field's JSON as JSON.stringify writes it. */
  fields(state: LobbyState, now: number): LobbyFields {
    const head = detailHead(state);
    const tail = detailTail(state);
    const values: string[] = [];
    for (const key in head) values.push(JSON.stringify(head[key as keyof typeof head]));
    values.push(this.#teamsJson(state, now), this.#poolJson(state));
    for (const key in tail) values.push(JSON.stringify(tail[key as keyof typeof tail]));
    this.#names ??= [...Object.keys(head), 'teams', 'pool', ...Object.keys(tail)];
    return { names: this.#names, values };
  }

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
