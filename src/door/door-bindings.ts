import type { RouteContract } from '../../schema/route-contract';

/**
 * The doors a route can be bound on: `express` (the catch-all app, which also serves the spellings
 * uWS does not match: a trailing slash, another letter case), `native` (a uWS route of its own:
 * the hot commands, the raw public reads, the streamed upload) and `socket` (the lobby commands as
 * socket.io's `lobby:command`).
 */
export type DoorKind = 'express' | 'native' | 'socket';

/**
 * Which doors each route contract is bound on, recorded by the binders as they bind: the parity
 * test (test/door/) drives every route through every door it is bound on from this table, so a
 * route bound on a new door is checked there without the test being edited.
 */
export class DoorBindings {
  readonly #doors = new Map<RouteContract, Set<DoorKind>>();

  bound(route: RouteContract, door: DoorKind): void {
    const doors = this.#doors.get(route) ?? new Set<DoorKind>();
    doors.add(door);
    this.#doors.set(route, doors);
  }

  doorsOf(route: RouteContract): DoorKind[] {
    return [...(this.#doors.get(route) ?? [])].sort();
  }
}
