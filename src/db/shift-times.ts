import type { Database } from './orm';

/** Table name to its date and time columns. */
export type TimeColumns = Record<string, string[]>;

/**
 * Moving every stored time by the same amount: a database seeded ahead of time (the demo template)
 * is brought to the moment it is first used, as if it had been seeded then. Every row moves
 * together, so intervals, orderings and constraints between columns hold. Times hidden in other
 * types (text, json) are not moved; the demo template's test compares a moved database with one
 * seeded on the spot, which catches one appearing.
 *
 * The columns are listed when the template is built, and only of tables holding rows: at start,
 * each table touched costs opening it (tens of ms in PGlite), and most are empty.
 */
export async function timeColumnsWithRows(db: Database): Promise<TimeColumns> {
  const em = db.em();
  const columns = await em.execute<{ table: string; column: string }[]>(
    `select c.relname as "table", a.attname as "column"
       from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
        and a.attgenerated = '' and a.atttypid in ('timestamptz'::regtype, 'timestamp'::regtype)
      order by c.relname, a.attnum`,
  );
  const byTable: TimeColumns = {};
  for (const { table, column } of columns) (byTable[table] ??= []).push(column);
  for (const table of Object.keys(byTable)) {
    const [{ any }] = await em.execute<{ any: boolean }[]>(`select exists (select 1 from ${quote(table)}) as "any"`);
    if (!any) delete byTable[table];
  }
  return byTable;
}

/** One transaction moving the columns' times by `ms`. */
export function shiftTimesSql(columns: TimeColumns, ms: number): string {
  if (!Number.isInteger(ms)) throw new Error(`shiftTimesSql: ${ms} is not a whole number of milliseconds`);
  const by = `interval '${ms} milliseconds'`;
  const updates = Object.entries(columns).map(
    ([table, names]) => `update ${quote(table)} set ${names.map((name) => `${quote(name)} = ${quote(name)} + ${by}`).join(', ')};`,
  );
  return ['begin;', ...updates, 'commit;'].join('\n');
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
