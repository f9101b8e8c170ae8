import { CompiledQuery } from 'kysely';
import type { EntityManager } from './orm';

/**
 * How a statement built piece by piece stands for one of its values: `?` for the ORM's `execute`,
 * which formats the values into the text in order (`questionMarks`), or a numbered placeholder
 * for a statement run bound (`BoundParams`, `executeBound`).
 */
export type Placeholder = (value: unknown) => string;

/** `?` placeholders, the values kept in order for the ORM's `execute`. */
export function questionMarks(): { place: Placeholder; params: unknown[] } {
  const params: unknown[] = [];
  return { place: (value) => (params.push(value), '?'), params };
}

/** Numbered placeholders (`$1`, `$2`, ...): `add` keeps a value and answers the placeholder that stands for it. */
export class BoundParams {
  readonly values: unknown[] = [];

  readonly add: Placeholder = (value) => {
    this.values.push(value);
    return `$${this.values.length}`;
  };
}

/**
 * Runs one statement outside any transaction with its parameters bound (Postgres's extended
 * protocol), where MikroORM v7's `execute` formats every parameter into the SQL text. For the
 * lobby records' write-behind, that text was the snapshots hex-encoded (twice their size) inside
 * a statement of some 70 KB, four times a second: JavaScript built and flattened the string, every
 * copy of it outlived the young generation (half of all promoted bytes in lobby-rest's heap
 * profile), and Postgres lexed it and decoded the hex. Bound, each snapshot travels once, as its
 * JSON text, and Postgres parses it as jsonb directly (docs/benchmarks.md, round 35).
 *
 * Told to the ORM's logger as the ORM tells it of its own statements, so the query metrics
 * (QueryTimingLogger) count it the same.
 */
export async function executeBound<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const started = performance.now();
  let failed = true;
  try {
    const result = await em.getConnection().getClient().executeQuery<T>(CompiledQuery.raw(sql, params));
    failed = false;
    return result.rows as T[];
  } finally {
    em.config.getLogger().logQuery({ query: sql, took: performance.now() - started, level: failed ? 'error' : 'info' });
  }
}
