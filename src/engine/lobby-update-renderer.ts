import { DETAIL_HEAD, DETAIL_TAIL, memberKey, poolView, readyChangesAt, slotReady, slotView, TEAMS, type DetailField, type LobbyState, type Slot } from '../domain/lobby';
import { deltaBody, wholeBody, type LobbyFields } from './lobby-update-fields';

interface KeptTeams {
  profiles: LobbyState['profiles'];
  /** The times between which the teams' ready flags, and so their JSON, stay as rendered. */
  from: number;
  until: number;
  json: string;
}

/** A slot's JSON, made while its occupant's profile was `profile` and its flag showed `ready`. */
interface KeptSlot {
  profile: LobbyState['profiles'][string] | undefined;
  ready: boolean;
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
  readonly #slots = new WeakMap<Slot, KeptSlot>();
  readonly #written = new WeakMap<LobbyState, string[]>();
  /** The detail's keys in the wire's order. */
  #names: string[] | null = null;

  /** Bound: handed on as an UpdateBody (see lobbyUpdates). */
  readonly body = (after: LobbyState, before: LobbyState | null, now: number): string => {
    const base = before !== null && before.version === after.version - 1 ? this.#written.get(before) : undefined;
    const fields = this.fields(after, now, base && { state: before!, values: base });
    this.#written.set(after, fields.values);
    return base ? deltaBody(fields, base) : wholeBody(fields);
  };

  /**
   * The state's detail as fields, each field's JSON as JSON.stringify writes it. With `kept` (an
   * earlier state's fields), a field whose state parts are the same as that state's is its JSON
   * there, not made again.
   */
  fields(state: LobbyState, now: number, kept?: { state: LobbyState; values: readonly string[] }): LobbyFields {
    const values: string[] = [];
    for (const name in DETAIL_HEAD) values.push(fieldJson(DETAIL_HEAD[name as keyof typeof DETAIL_HEAD], state, kept, values.length));
    values.push(this.#teamsJson(state, now), this.#poolJson(state));
    for (const name in DETAIL_TAIL) values.push(fieldJson(DETAIL_TAIL[name as keyof typeof DETAIL_TAIL], state, kept, values.length));
    this.#names ??= [...Object.keys(DETAIL_HEAD), 'teams', 'pool', ...Object.keys(DETAIL_TAIL)];
    return { names: this.#names, values };
  }

  #teamsJson(state: LobbyState, now: number): string {
    const kept = this.#teams.get(state.teams);
    if (kept && kept.profiles === state.profiles && now >= kept.from && now < kept.until) return kept.json;
    // As JSON.stringify(teamsView(state, now)) writes it, each seat kept apart: a keep-ready
    // changes one slot, and the rules share the others with the state before (see sharedCopy).
    let json = '{';
    for (const team of TEAMS) {
      json += `${json.length > 1 ? ',' : ''}"${team}":[`;
      state.teams[team].forEach((slot, i) => (json += (i > 0 ? ',' : '') + this.#slotJson(state, slot, now)));
      json += ']';
    }
    json += '}';
    this.#teams.set(state.teams, { profiles: state.profiles, from: now, until: readyChangesAt(state, now), json });
    return json;
  }

  #slotJson(state: LobbyState, slot: Slot, now: number): string {
    const profile = slot.userId === null ? undefined : state.profiles[memberKey(slot.userId)];
    const ready = slotReady(slot, now);
    const kept = this.#slots.get(slot);
    if (kept && kept.profile === profile && kept.ready === ready) return kept.json;
    const json = JSON.stringify(slotView(state, slot, now));
    this.#slots.set(slot, { profile, ready, json });
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

function fieldJson(field: DetailField<unknown>, state: LobbyState, kept: { state: LobbyState; values: readonly string[] } | undefined, at: number): string {
  if (kept && sameParts(field.from, kept.state, state)) return kept.values[at];
  return JSON.stringify(field.value(state));
}

function sameParts(parts: readonly (keyof LobbyState)[], a: LobbyState, b: LobbyState): boolean {
  for (const part of parts) if (a[part] !== b[part]) return false;
  return true;
}
