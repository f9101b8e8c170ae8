import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';

let server: TestServerWithLogin;
let cookie: string;

beforeAll(async () => {
  server = await startTestServerWithLogin();
  cookie = (await server.login('76561198000000901')).cookie;
});
afterAll(() => server?.close());

const createLobby = (body: unknown) =>
  fetch(`${server.url}/api/lobbies`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });

it('a 100,000-character value is refused naming the field and the rule, never quoting the value', async () => {
  const res = await createLobby({ format: 'x'.repeat(100_000) });
  expect(res.status).toBe(400);
  const text = await res.text();
  expect(text.length).toBeLessThan(300);
  const { error } = JSON.parse(text) as { error: string };
  expect(error).toMatch(/^format: invalid picklist: expected .*6v6.*\)$/);
  expect(error).not.toContain('xx');
});

it('a value of the wrong type says what was expected, not what came', async () => {
  const res = await createLobby({ format: 42 });
  expect(res.status).toBe(400);
  expect((await res.json()).error).toMatch(/^format: invalid picklist: expected \("6v6" \| "9v9".*\)$/);
});

it('a long query value is refused without being echoed whole', async () => {
  const res = await fetch(`${server.url}/api/public/matches?limit=${'9'.repeat(5_000)}`);
  expect(res.status).toBe(400);
  const text = await res.text();
  expect(text.length).toBeLessThan(300);
  expect(JSON.parse(text).error).toMatch(/^limit: /);
});

it('a NUL character, which Postgres cannot store, is refused with 400 naming the field', async () => {
  const res = await createLobby({ name: 'a\u0000b' });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: 'name: must not contain NUL characters' });
  const query = await fetch(`${server.url}/api/users/leaderboard?limit=%00`);
  expect(query.status).toBe(400);
  expect(await query.json()).toEqual({ error: 'limit: must not contain NUL characters' });
});
