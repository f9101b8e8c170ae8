import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../../src/observability/logger';
import { startTestServer, type TestServer } from '../../support/test-server';

let t: TestServer;
let logged = '';

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logged += chunk;
      done();
    },
  });
  t = await startTestServer({}, { logger: createLogger('info', sink) });
});
afterAll(() => t?.close());

it('an unexpected failure is a 500 "internal error" with the stack only in the log', async () => {
  await t.database.db.em().execute('drop table match_players, matches cascade'); // the data goes away under the server
  const res = await fetch(`${t.url}/api/public/match/4242`);
  expect(res.status).toBe(500);
  expect(await res.json()).toEqual({ error: 'internal error' });
  expect(logged).toContain('"level":50');
  const errorLine = logged.split('\n').find((line) => line.includes('"level":50'))!;
  expect(JSON.parse(errorLine).err.stack).toMatch(/\n\s+at /);
});

it('readiness reports the live store as down while it is', async () => {
  await t.server.live.close();
  const res = await fetch(`${t.url}/readyz`);
  expect(res.status).toBe(503);
  // The test above dropped the match tables, so the database is not ready either.
  expect(await res.json()).toEqual({ ok: false, database: false, live_store: false });
});
