import { KeyedSlots } from '../collections/keyed-slots';
import { DETAIL_HEAD, DETAIL_TAIL, memberKey, poolView, readyChangesAt, slotReady, slotView, TEAMS, type DetailField, type LobbyState, type Slot, type Team } from '../domain/lobby';
import { deltaBody, wholeBody, type LobbyFields } from './lobby-update-fields';

interface KeptTeams {
  teams: LobbyState['teams'];
  profiles: LobbyState['profiles'];
  /** The times between which the teams' ready flags, and so their JSON, stay as rendered. */
  from: number;
  until: number;
  json: string;
}

/**
 * A slot's JSON, made while its occupant's profile was `profile` and its flag showed `ready`;
 * `profiles`: the record that profile was last found in, so that while the lobby's profiles are
 * that very record the seat is not looked up again (a keep-ready renders all twelve seats).
 */
interface KeptSlot {
  slot: Slot;
  profiles: LobbyState['profiles'];
  profile: LobbyState['profiles'][string] | undefined;
  ready: boolean;
  json: string;
}

interface KeptPool {
  pool: LobbyState['pool'];
  profiles: LobbyState['profiles'];
  json: string;
}

/** What the renderer last made for one lobby, changed in place as the lobby changes. */
interface RenderedLobby {
  /** The state it last wrote a body for, and that body's fields. */
  written: LobbyState | null;
  values: readonly string[];
  teams: KeptTeams | null;
  pool: KeptPool | null;
  /** Per team, per seat. */
  slots: Record<Team, (KeptSlot | undefined)[]>;
  /** Rendered since the last sweep (see KeyedSlots). */
  used: boolean;
}

/**
 * The lobby feed's `lobby:update` bodies (see lobby-update-fields.ts), each field exactly as
 * JSON.stringify of lobbyDetail writes it, keeping the JSON of the teams and the pool (players'
 * profiles: most of a lobby's 4 KB) while the state parts they come from are the very same
 * objects. The rules share every part a command left alone with the state before (see
 * applyLobbyCommand), so a vote, the commonest command, serializes its few changed bytes.
 *
 * It also keeps, per lobby, the fields it wrote for the lobby's last state: an update whose state
 * before is that state, one version older, goes out as a delta from exactly what the feed carried
 * for that version. A state before that this renderer did not write (read from the store, written
 * by another instance) gets a whole update.
 *
 * Kept per lobby and per seat, replaced in place, not in weak maps keyed by each state part: those
 * maps took a new entry per command, and their values lived on in the old generation until a full
 * collection (docs/hot-collections.md).
 */
export class LobbyUpdateRenderer {
  readonly #lobbies = new KeyedSlots<string, RenderedLobby>(
    () => ({ written: null, values: [], teams: null, pool: null, slots: { red: [], blu: [] }, used: false }),
    (rendered) => {
      const idle = !rendered.used;
      rendered.used = false;
      return idle;
    },
  );
  /** The detail's keys in the wire's order. */
  #names: string[] | null = null;

  /** Bound: handed on as an UpdateBody (see lobbyUpdates). */
  readonly body = (after: LobbyState, before: LobbyState | null, now: number): string => {
    const rendered = this.#lobbies.slot(after.code);
    const base = before !== null && before === rendered.written && before.version === after.version - 1 ? rendered.values : undefined;
    const fields = this.#fields(rendered, after, now, base && { state: before!, values: base });
    rendered.written = after;
    rendered.values = fields.values;
    return base ? deltaBody(fields, base) : wholeBody(fields);
  };

  /**
   * The state's detail as fields, each field's JSON as JSON.stringify writes it. With `kept` (an
   * earlier state's fields), a field whose state parts are the same as that state's is its JSON
   * there, not made again.
   */
  fields(state: LobbyState, now: number, kept?: { state: LobbyState; values: readonly string[] }): LobbyFields {
    return this.#fields(this.#lobbies.slot(state.code), state, now, kept);
  }

  #fields(rendered: RenderedLobby, state: LobbyState, now: number, kept: { state: LobbyState; values: readonly string[] } | undefined): LobbyFields {
    rendered.used = true;
    const values: string[] = [];
    for (const name in DETAIL_HEAD) values.push(fieldJson(DETAIL_HEAD[name as keyof typeof DETAIL_HEAD], state, kept, values.length));
    values.push(teamsJson(rendered, state, now), poolJson(rendered, state));
    for (const name in DETAIL_TAIL) values.push(fieldJson(DETAIL_TAIL[name as keyof typeof DETAIL_TAIL], state, kept, values.length));
    this.#names ??= [...Object.keys(DETAIL_HEAD), 'teams', 'pool', ...Object.keys(DETAIL_TAIL)];
    return { names: this.#names, values };
  }
}

function teamsJson(rendered: RenderedLobby, state: LobbyState, now: number): string {
  const kept = rendered.teams;
  if (kept && kept.teams === state.teams && kept.profiles === state.profiles && now >= kept.from && now < kept.until) return kept.json;
  // As JSON.stringify(teamsView(state, now)) writes it, each seat kept apart: a keep-ready
  // changes one slot, and the rules share the others with the state before (see sharedCopy).
  let json = '{';
  for (const team of TEAMS) {
    json += `${json.length > 1 ? ',' : ''}"${team}":[`;
    const seats = rendered.slots[team];
    state.teams[team].forEach((slot, i) => (json += (i > 0 ? ',' : '') + slotJson(seats, i, state, slot, now)));
    json += ']';
  }
  json += '}';
  rendered.teams = { teams: state.teams, profiles: state.profiles, from: now, until: readyChangesAt(state, now), json };
  return json;
}

function slotJson(seats: (KeptSlot | undefined)[], seat: number, state: LobbyState, slot: Slot, now: number): string {
  const ready = slotReady(slot, now);
  const kept = seats[seat];
  const sameSeat = kept !== undefined && kept.slot === slot && kept.ready === ready;
  if (sameSeat && kept.profiles === state.profiles) return kept.json;
  const profile = slot.userId === null ? undefined : state.profiles[memberKey(slot.userId)];
  if (sameSeat && kept.profile === profile) {
    kept.profiles = state.profiles;
    return kept.json;
  }
  const json = JSON.stringify(slotView(state, slot, now));
  seats[seat] = { slot, profiles: state.profiles, profile, ready, json };
  return json;
}

function poolJson(rendered: RenderedLobby, state: LobbyState): string {
  const kept = rendered.pool;
  if (kept && kept.pool === state.pool && kept.profiles === state.profiles) return kept.json;
  const json = JSON.stringify(poolView(state));
  rendered.pool = { pool: state.pool, profiles: state.profiles, json };
  return json;
}

function fieldJson(field: DetailField<unknown>, state: LobbyState, kept: { state: LobbyState; values: readonly string[] } | undefined, at: number): string {
  if (kept && sameParts(field.from, kept.state, state)) return kept.values[at];
  return JSON.stringify(field.value(state));
}

function sameParts(parts: readonly (keyof LobbyState)[], a: LobbyState, b: LobbyState): boolean {
  for (const part of parts) if (a[part] !== b[part]) return false;
  return true;
}
