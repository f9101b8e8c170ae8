import pino from 'pino';
import { openDatabase } from '../../src/db/orm';
const N = Number(process.env.N ?? 600);
const db = await openDatabase({ dataDir: ':memory:', logger: pino({ level: 'silent' }), poolSize: Number(process.env.POOL ?? 10) });
await db.em().execute('create table probe (id serial primary key, v int not null)');
const pool = await db.orm.em.getConnection().getNativeClient();
pool.on('error', () => {});
let wrong = 0, failed = 0;
await Promise.all(Array.from({ length: N }, async (_, i) => {
  try {
    if (i % 5 === 0) {
      const c = await pool.connect();
      c.on('error', () => {});
      try { await c.query('begin'); await c.query('insert into probe (v) values ($1)', [i]); const r = await c.query('select count(*)::int as n from probe where v = $1', [i]); if (r.rows[0].n !== 1) wrong++;
        if (i % 10 === 0) await c.query('rollback'); else await c.query('commit'); } finally { c.release(); }
      return;
    }
    const { rows } = await pool.query(i % 2 ? 'select $1::int + 1 as x' : 'select $1::int * 2 as x, 7 as y', [i]);
    if (rows[0].x !== (i % 2 ? i + 1 : i * 2)) wrong++;
  } catch (e) { failed++; }
}));
console.log({ wrong, failed });
await db.close();
