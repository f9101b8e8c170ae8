import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/composition/demo-seed';
import { openDatabase, type Database } from '../../src/db/orm';
import { buildTemplates } from '../../src/db/pglite-template-build';
import { templatesBuilt } from '../../src/db/pglite-template';
import { shiftTimesSql, timeColumnsWithRows } from '../../src/db/shift-times';

/**
 * A newcomer's first start copies a database seeded ahead of time and moves its times to the
 * present (src/db/pglite-template.ts): what it then holds must be what seeding at that moment writes.
 */
const silent = pino({ level: 'silent' });
const HOUR = 3_600_000;
const ms = (time: string) => `(extract(epoch from ${time}) * 1000)::float8`;

/** Every public table's rows, times (as ms) apart from the rest, in a stable order. */
async function contents(db: Database): Promise<Record<string, { times: number[]; rest: string }[]>> {
  const columns = await db.em().execute<{ table: string; column: string; time: boolean }[]>(
    `select c.relname as "table", a.attname as "column", a.atttypid in ('timestamptz'::regtype, 'timestamp'::regtype) as "time"
       from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
      order by 1, 2`,
  );
  const out: Record<string, { times: number[]; rest: string }[]> = {};
  for (const table of new Set(columns.map((c) => c.table))) {
    if (table === 'mikro_orm_migrations') continue;
    const own = columns.filter((c) => c.table === table);
    const times = own.filter((c) => c.time).map((c) => `(extract(epoch from "${c.column}") * 1000)::float8`);
    const rest = own.filter((c) => !c.time).map((c) => `"${c.column}"`);
    const rows = await db.em().execute<{ times: (number | null)[]; rest: unknown }[]>(
      `select array[${times.join(', ') || 'null::float8'}] as times, json_build_array(${rest.join(', ')})::text as rest from "${table}"`,
    );
    out[table] = rows
      .map((row) => ({ times: row.times.map((t) => t ?? Number.NaN), rest: String(row.rest) }))
      .sort((a, b) => a.rest.localeCompare(b.rest));
  }
  return out;
}

describe('the demo template', () => {
  let early: Database;
  let late: Database;
  beforeAll(async () => {
    [early, late] = await Promise.all([0, 1].map(() => openDatabase({ dataDir: ':memory:', logger: silent, timeoutMs: 0 })));
    await early.migrate();
    await late.migrate();
  }, 120_000);
  afterAll(async () => {
    await early?.close();
    await late?.close();
  });

  it('holds, once its times are moved, exactly what seeding at the later moment writes', async () => {
    // As the template is built: seeded at one moment, its columns listed, the seed's end noted.
    await seedDemo(early, new Date());
    const columns = await timeColumnsWithRows(early);
    const seededEarly = Date.now();
    const seededLate = Date.now();
    await seedDemo(late, new Date(seededLate));
    await early.em().execute(shiftTimesSql(columns, seededLate - seededEarly));

    const [moved, fresh] = [await contents(early), await contents(late)];
    expect(Object.keys(moved)).toEqual(Object.keys(fresh));
    for (const table of Object.keys(fresh)) {
      // Everything but times is identical: a time kept in text or json would differ here.
      expect(moved[table].map((r) => r.rest), table).toEqual(fresh[table].map((r) => r.rest));
      moved[table].forEach((row, i) =>
        row.times.forEach((time, k) => {
          // Times the seed wrote relative to its `now` land within a seed's run of the fresh ones
          // (the template's `now` is its start, the move is from its end); the database's defaults too.
          const other = fresh[table][i].times[k];
          if (Number.isNaN(time) || Number.isNaN(other)) expect([time, other], `${table} row ${i} time ${k}`).toEqual([time, time]);
          else expect(Math.abs(time - other), `${table} row ${i} time ${k}`).toBeLessThan(60_000);
        }),
      );
    }
  });
});

describe('a first start on embedded defaults', () => {
  let dataDir: string;
  beforeAll(async () => {
    if (!templatesBuilt()) await buildTemplates((db, now) => seedDemo(db, now));
    dataDir = await mkdtemp(join(tmpdir(), 'league-demo-'));
  }, 180_000);
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('finds the demo league migrated and seeded, dated from the moment it starts', async () => {
    const startedAt = Date.now() + 40 * 24 * HOUR;
    const db = await openDatabase({ dataDir, logger: silent, template: 'demo', clock: () => startedAt });
    try {
      expect(db.embedded?.demoSeeded).toBe(true);
      expect(await db.ready()).toBe(true);
      const [announcement] = await db.em().execute<{ starts: number; ends: number }[]>(`select ${ms('starts_at')} as starts, ${ms('ends_at')} as ends from announcements`);
      // The seed's announcement starts an hour before its `now` and runs for thirty days.
      expect(Math.abs(announcement.starts - (startedAt - HOUR))).toBeLessThan(60_000);
      expect(announcement.ends).toBeGreaterThan(startedAt + 29 * 24 * HOUR);
      const [{ latest }] = await db.em().execute<{ latest: number }[]>(`select ${ms('max(ended_at)')} as latest from matches`);
      expect(Math.abs(latest - (startedAt - 2 * HOUR))).toBeLessThan(60_000);
    } finally {
      await db.close();
    }
  });

  it('copies one database with small WAL segments: the files a first start writes are few', async () => {
    const db = await openDatabase({ dataDir: join(dataDir, 'another'), logger: silent, template: 'demo' });
    try {
      const databases = await db.em().execute<{ datname: string }[]>('select datname from pg_database order by 1');
      expect(databases.map((d) => d.datname)).toEqual(['postgres']);
      const [{ segment }] = await db.em().execute<{ segment: string }[]>(`select current_setting('wal_segment_size') as segment`);
      expect(segment).toBe('1MB');
    } finally {
      await db.close();
    }
    const walFiles = (await readdir(join(dataDir, 'another', 'pglite', 'pg_wal'), { withFileTypes: true })).filter((e) => e.isFile());
    expect(walFiles.length).toBeGreaterThan(0);
    expect(walFiles.length).toBeLessThanOrEqual(6);
  });

  it('moves the times once: the next start finds them where the first left them', async () => {
    const db = await openDatabase({ dataDir, logger: silent, template: 'demo', clock: () => Date.now() + 400 * 24 * HOUR });
    try {
      expect(db.embedded?.demoSeeded).toBe(false);
      const [{ latest }] = await db.em().execute<{ latest: number }[]>(`select ${ms('max(ended_at)')} as latest from matches`);
      expect(latest).toBeLessThan(Date.now() + 41 * 24 * HOUR);
    } finally {
      await db.close();
    }
  });
});
