import type { VersionedUser } from '../db/users-repository';

export interface UserRows {
  /** Users with these ids and their row versions; unknown ids are left out. */
  findVersionedByIds(ids: readonly number[]): Promise<VersionedUser[]>;
}

interface Batch {
  ids: Set<number>;
  rows: Promise<Map<number, VersionedUser>>;
}

/**
 * User rows by id, the lookups asked for in one turn of the event loop read with ONE query. Every
 * authenticated request whose recent copy has expired asks for its user's row (recent-users.ts);
 * under load many of them arrive in the same turn, and each query paid the ORM's per-statement
 * work and a pooled connection of its own. The rows are as fresh as a query per lookup would give:
 * the query is sent in the turn the lookups were made, never answered from an earlier one.
 */
export class BatchedUserReads {
  #pending: Batch | null = null;

  constructor(private readonly rows: UserRows) {}

  findById(id: number): Promise<VersionedUser | null> {
    const batch = (this.#pending ??= this.#open());
    batch.ids.add(id);
    return batch.rows.then((found) => found.get(id) ?? null);
  }

  #open(): Batch {
    const ids = new Set<number>();
    const rows = new Promise<Map<number, VersionedUser>>((resolve, reject) => {
      // setImmediate, not a microtask: the requests uWS hands over in one poll phase share the batch.
      setImmediate(() => {
        this.#pending = null;
        this.rows.findVersionedByIds([...ids]).then((list) => resolve(new Map(list.map((row) => [row.user.id, row]))), reject);
      });
    });
    return { ids, rows };
  }
}
