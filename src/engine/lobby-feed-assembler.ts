import type { LobbyDetail } from '../../schema/lobby';
import { isClosed, type LobbyPhase } from '../domain/lobby';
import { fieldsOf, readBody, updateJson, type LobbyFields } from './lobby-update-fields';

/** A lobby's current version as the store answers it, for a receiver that lost track (null: no such lobby). */
export type ReadLobby = (code: string) => Promise<LobbyDetail | null>;

/** One assembled update: its phase, and its `lobby:update` JSON made on first use. */
export interface AssembledUpdate {
  code: string;
  version: number;
  phase: string;
  json(): string;
}

/** A lobby's fields at a version; `values` is never changed once delivered: a delta makes a new array. */
interface Base extends LobbyFields {
  version: number;
}

/** More lobbies than a league has open at once; past it the oldest is forgotten (its next delta reads it again). Closed lobbies are forgotten at once. */
const MAX_LOBBIES = 5_000;
/** How soon a lobby read again after a possible loss is tried again when the read failed. */
const RECHECK_RETRY_MS = 1_000;

/**
 * One receiver's side of the lobby feed's deltas (see lobby-update-fields.ts): per lobby, the
 * fields of the last version it assembled, into which the next version's delta is spliced.
 *
 * A delta it cannot place (no fields for the lobby yet: this instance started after the lobby's
 * last whole update, or the feed lost a message) makes it read the lobby from the store and
 * hand that on as the next update, a version at least as new as the delta's (the delta was
 * published with the commit the read follows). Whatever arrives for that lobby meanwhile, chat
 * included, waits and follows in feed order; a version the read already covers is dropped. Other
 * lobbies flow on. A receiver that watches nothing still keeps every lobby's fields, so its first
 * watcher never waits for a read.
 */
export class LobbyFeedAssembler {
  readonly #bases = new Map<string, Base>();
  /** Lobbies being read again, with what arrived for them meanwhile, in order. */
  readonly #waiting = new Map<string, Array<() => void>>();

  constructor(
    private readonly deliver: (update: AssembledUpdate) => void,
    private readonly read: ReadLobby | undefined,
    private readonly onError: (error: unknown, code: string) => void,
  ) {}

  /** Runs `step` now, or after the lobby's read under way, in arrival order. */
  inOrder(code: string, step: () => void): void {
    const waiting = this.#waiting.get(code);
    if (waiting) waiting.push(step);
    else step();
  }

  update(code: string, version: number, phase: string, body: string): void {
    this.inOrder(code, () => this.#place(code, version, phase, body));
  }

  /**
   * The feed may have lost messages (its subscription was interrupted), and the lobby that lost
   * one may never send another: every lobby held here is read again at once. One the store has
   * moved past what was handed on goes on as its next update (a jump, which a watcher resyncs);
   * one that is gone is forgotten; one that cannot be read yet is tried again RECHECK_RETRY_MS later.
   */
  recheckAll(): void {
    for (const code of [...this.#bases.keys()]) this.#recheck(code);
  }

  #place(code: string, version: number, phase: string, body: string): void {
    let base = this.#bases.get(code);
    // Covered by a read that got ahead of it: a watcher never sees a version go back.
    if (base && version <= base.version) return;
    const { whole, entries } = readBody(body);
    if (whole) {
      base = { version, names: entries.map(([name]) => name), values: entries.map(([, json]) => json) };
      this.#keep(code, base);
    } else if (base && version === base.version + 1) {
      const values = [...base.values];
      for (const [name, json] of entries) {
        const at = base.names.indexOf(name);
        if (at === -1) throw new Error(`lobby feed: a delta of ${code} names an unknown field "${name}"`);
        values[at] = json;
      }
      base = { version, names: base.names, values };
      this.#bases.set(code, base);
    } else {
      this.#bases.delete(code);
      this.#readAgain(code);
      return;
    }
    this.#deliver(code, base, phase);
  }

  #deliver(code: string, base: Base, phase: string): void {
    // A closed lobby changes at most once more (its match recorded): that one is read again.
    if (isClosed(phase as LobbyPhase)) this.#bases.delete(code);
    this.deliver({ code, version: base.version, phase, json: () => updateJson(code, base.version, base) });
  }

  #keep(code: string, base: Base): void {
    this.#bases.delete(code);
    this.#bases.set(code, base);
    if (this.#bases.size > MAX_LOBBIES) this.#bases.delete(this.#bases.keys().next().value!);
  }

  /** `handedOn`: the version already delivered, which a read that is not ahead of it leaves as it is. */
  #readAgain(code: string, handedOn?: number): void {
    const waiting: Array<() => void> = [];
    this.#waiting.set(code, waiting);
    const rechecking = handedOn !== undefined;
    const done = (detail: LobbyDetail | null, failed = false) => {
      this.#waiting.delete(code);
      if (detail && (!rechecking || detail.version > handedOn)) {
        const base = { version: detail.version, ...fieldsOf(detail) };
        this.#keep(code, base);
        this.#deliver(code, base, detail.phase);
      } else if (!detail && !(rechecking && failed)) this.#bases.delete(code);
      // A recheck that could not read (the store is still coming back) keeps what was handed on and
      // tries again: no later delta may ever come to show the loss.
      if (rechecking && failed) setTimeout(() => this.#recheck(code), RECHECK_RETRY_MS).unref();
      // What arrived meanwhile, in order; a step that starts another read leaves the rest to it.
      for (let i = 0; i < waiting.length; i++) {
        try {
          waiting[i]();
        } catch (error) {
          this.onError(error, code);
        }
        const again = this.#waiting.get(code);
        if (again) {
          again.push(...waiting.slice(i + 1));
          return;
        }
      }
    };
    const reading = this.read ? Promise.resolve().then(() => this.read!(code)) : Promise.resolve(null);
    reading.then(
      (detail) => done(detail),
      (error: unknown) => {
        this.onError(error, code);
        done(null, true);
      },
    );
  }

  /** One lobby read again after a possible loss, unless a read of it is under way or it was forgotten since. */
  #recheck(code: string): void {
    const base = this.#bases.get(code);
    if (base && !this.#waiting.has(code)) this.#readAgain(code, base.version);
  }
}
