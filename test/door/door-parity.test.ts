import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteContract } from '../../schema/route-contract';
import { allRoutes } from '../../schema/routes';
import { KEY_IN_URL_REFUSAL } from '../../src/door/key-in-url';
import type { RequestScope } from '../../src/door/request-scope';
import { grantPremium, issueKey, movableClock } from '../api/identity/identity-fixtures';
import { startTestServerWithLogin, type LoggedIn, type TestServerWithLogin } from '../support/login';
import { startOwnRedis, type OwnRedis } from '../support/own-redis';
import { KeepAliveConnection, type RawResponse } from '../support/raw-http';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { until } from '../support/timing';
import { SocketDoor } from './socket-door';
import { bodyFor, doorCases, inParallel, isSessionStateChange, send, sendOnKept, sitePaths, takesBody, type DoorCase, type DoorRequest, type Outcome } from './door-cases';

/*
 * Generated from the contracts: every route of schema/routes, through every door the server bound
 * it on (express, native uWS, the socket's `lobby:command`), against one real server whose Redis and Postgres (behind the test's
 * own proxy) the test stops. Each rule must answer the same status and the same `{error}` body at
 * every door: a rule written once in the exchange (src/door/exchange.ts) holds everywhere.
 */
const ADMIN = '76561198000002101';
/** A second premium admin, whose sessions the Postgres-stopped-with-a-session phase spends (it may log out, delete). */
const SESSION_ADMIN = '76561198000002102';
const PLUGIN_SECRET = 'the-plugin-secret-of-the-parity-test';
const REDIS_TIMEOUT_MS = 1_000;
const DATABASE_TIMEOUT_MS = 1_500;
/** What a request may take beyond the store's timeout (the answer, on a loaded 2-core CI box). */
const MARGIN_MS = 1_500;
const FAKE_KEY = `svc_pk_${'a'.repeat(43)}`;
const WIDTH = 8;

const clock = movableClock();
/**
 * The statements each request's handler sent before it was answered, by request id: the server runs
 * in this process, its query observer sees every statement, and the exchange runs each request in
 * its scope (src/door/request-scope.ts). Not counted: the credential step's (the session user's row
 * is loaded once for concurrent requests, by whichever came first, and the stopped runs check the
 * credential on their own), and work left running after the answer (a queued audit row).
 */
const statements = new Map<string, number>();
const answered = new Set<string>();
const countStatement = (_sql: string, _seconds: number, _failed: boolean, request: RequestScope | undefined) => {
  if (request?.step === 'handler' && !answered.has(request.requestId)) statements.set(request.requestId, (statements.get(request.requestId) ?? 0) + 1);
};
const redis: OwnRedis = await startOwnRedis({ appendonly: true });
const database: TestDatabase = await createTestDatabase();
const proxy: TcpProxy = await startTcpProxy(database.url);
const server: TestServerWithLogin = await startTestServerWithLogin(
  {
    REDIS_URL: redis.url, REDIS_PREFIX: 'parity:', REDIS_TIMEOUT_MS: String(REDIS_TIMEOUT_MS),
    DATABASE_URL: proxy.url, DATABASE_TIMEOUT_MS: String(DATABASE_TIMEOUT_MS),
    ADMIN_PLATFORM_IDS: `${ADMIN},${SESSION_ADMIN}`, PLUGIN_SECRET, SHUTDOWN_DRAIN_MS: '30000',
  },
  { clock: clock.now, onQuery: countStatement, observers: [(record) => answered.add(record.requestId)] },
);
const cases = doorCases(server.server.bindings);
const table = cases.map((c) => [c.name, c] as const);
const httpCases = cases.filter((c) => c.door !== 'socket');
const socketDoor = new SocketDoor(server.url);
let admin: LoggedIn;
let keys: { premium: string; admin: string };

beforeAll(async () => {
  admin = await server.login(ADMIN);
  await grantPremium(server, admin.user.id, clock.now(), 365);
  keys = { premium: (await issueKey(server, admin.cookie, 'premium')).raw, admin: (await issueKey(server, admin.cookie, 'admin')).raw };
}, 30_000);
afterAll(async () => {
  socketDoor.close();
  proxy.restore();
  await server.close();
  await proxy.close();
  await database.drop();
  await redis.stop();
});

/** Headers of a credential the route accepts (a premium admin's session first), so that the request reaches the step under test. */
function passing(route: RouteContract): Record<string, string> {
  if (route.auth.includes('session') || route.optionalSession) return { cookie: admin.cookie };
  if (route.auth.includes('admin')) return { authorization: `Bearer ${keys.admin}` };
  if (route.auth.includes('premium')) return { authorization: `Bearer ${keys.premium}` };
  if (route.auth.includes('plugin')) return { 'x-svc-plugin-secret': PLUGIN_SECRET };
  return {};
}

const request = (c: DoorCase, more: Partial<DoorRequest> = {}): DoorRequest => ({ method: c.route.method.toUpperCase(), target: c.path, body: bodyFor(c.route), ...more });
const credentialed = (route: RouteContract) => route.auth.length > 0 && !route.optionalSession;

const endsSession = (route: RouteContract) => /logout/i.test(route.operationId);
const acceptsSession = (route: RouteContract) => route.auth.includes('session') || route.optionalSession === true;

/** One request through its case's door: HTTP, or the socket's handshake and command. */
const through = (c: DoorCase, req: DoorRequest) => (c.door === 'socket' ? socketDoor.send(c, req) : send(server.url, req));

/**
 * Runs every case's request at once (bounded), so a phase costs about one request's time. `open`
 * connects the sockets the phase's socket cases will use, before a fault is caused.
 */
function phase(select: (c: DoorCase) => boolean, build: (c: DoorCase) => DoorRequest) {
  const outcomes = new Map<DoorCase, Outcome>();
  // Each HTTP request carries an id of its own, under which the server counts its statements.
  const tag = `parity-${++phases}`;
  const idOf = (c: DoorCase) => `${tag}.${cases.indexOf(c)}`;
  const tagged = (c: DoorCase) => {
    const built = build(c);
    return c.door === 'socket' ? built : { ...built, headers: { ...built.headers, 'x-request-id': idOf(c) } };
  };
  const chosen = () => cases.filter(select);
  const open = () => Promise.all(chosen().filter((c) => c.door === 'socket').map((c) => socketDoor.open(build(c))));
  const run = async () => {
    // A route that ends the session it is sent with runs after the others, which may send the same one.
    for (const wave of [chosen().filter((c) => !endsSession(c.route)), chosen().filter((c) => endsSession(c.route))]) {
      const results = await inParallel(wave, WIDTH, (c) => through(c, tagged(c)));
      wave.forEach((c, i) => outcomes.set(c, results[i]));
    }
  };
  /**
   * Whether serving the route sent a statement to Postgres before answering, at any HTTP door of
   * this phase (a cache one door filled spares the other); undefined when no HTTP door ran it.
   */
  const touchesPostgres = (route: RouteContract): boolean | undefined => {
    const ran = cases.filter((c) => c.route === route && c.door !== 'socket' && outcomes.has(c));
    return ran.length === 0 ? undefined : ran.some((c) => (statements.get(idOf(c)) ?? 0) > 0);
  };
  return { run, open, outcomes, touchesPostgres, table: table.filter(([, c]) => select(c)) };
}
let phases = 0;

/** A body's shape: its keys and the types of its values, arrays by their first item (an empty one stays empty). */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, shape(v)]));
  return value === null ? 'null' : typeof value;
}

/**
 * With Postgres stopped, a route whose handler sends a statement with Postgres up answers 503 {error}
 * with Retry-After (never a 404 or an empty 200 made of a swallowed error); any other route answers
 * what it answers with Postgres up, status and body shape (a feature not configured included), or,
 * when it was presented a credential, 503 {error} with Retry-After: checking the credential (the
 * user behind a session, a key) may need Postgres.
 */
function expectPostgresStoppedAnswer(c: DoorCase, outcome: Outcome, normal: Outcome, touches: boolean, presented: boolean): void {
  if (touches) return expectUnavailable(c, outcome);
  const same = outcome.status === normal.status && JSON.stringify(shape(outcome.body)) === JSON.stringify(shape(normal.body));
  if (same) return;
  if (AFTER_OTHER_CASES.has(c.route.path) && outcome.status >= 400 && outcome.status < 500) return expect(shape(outcome.body)).toEqual({ error: 'string' });
  if (presented && outcome.status === 503) return expectUnavailable(c, outcome);
  expect({ status: outcome.status, body: shape(outcome.body) }, `${seen(outcome)}; with Postgres up: ${seen(normal)}`).toEqual({ status: normal.status, body: shape(normal.body) });
}

/**
 * Routes whose answer depends on whether another case of the same sweep ran first and succeeded
 * (the party that the sweep's own `POST /api/parties/create` made, racing it WIDTH at a time). With
 * Postgres stopped that creation is refused, so these meet no party and answer a 4xx {error} for
 * that, where with Postgres up they may have found one; their handlers send no statement either way.
 */
const AFTER_OTHER_CASES = new Set(['/api/parties/invite', '/api/parties/leave', '/api/parties/kick', '/api/parties/disband']);

/** What came back, for a failure's message. */
const seen = (outcome: Outcome) => `${outcome.status} ${JSON.stringify(outcome.body)}`.slice(0, 200);

/** Routes bound on more than one door: each phase checks that their doors agree. */
const multiDoor = allRoutes.filter((route) => cases.filter((c) => c.route === route).length > 1).map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const);

/** `ownMessage` says which doors' error messages may differ (the shape must not). */
function expectDoorsAgree(outcomes: Map<DoorCase, Outcome>, route: RouteContract, ownMessage: (door: DoorCase['door']) => boolean = () => false): void {
  const answers = cases.filter((c) => c.route === route && outcomes.has(c)).map((c) => ({ door: c.door, status: outcomes.get(c)!.status, body: outcomes.get(c)!.body }));
  for (const each of answers.slice(1)) {
    const expected = ownMessage(each.door) || ownMessage(answers[0].door) ? { error: expect.any(String) } : answers[0].body;
    expect({ status: each.status, body: each.body }, `${each.door} against ${answers[0].door}`).toEqual({ status: answers[0].status, body: expected });
  }
}

it('binds every route of the contracts on at least one door', () => {
  expect(allRoutes.filter((route) => !cases.some((c) => c.route === route)).map((r) => `${r.method} ${r.path}`)).toEqual([]);
});

describe('with no credential', () => {
  const p = phase((c) => credentialed(c.route), (c) => request(c));
  beforeAll(p.run, 30_000);
  it.each(p.table)('%s answers 401 {error}', (_name, c) => {
    const outcome = p.outcomes.get(c)!;
    expect(outcome.status, seen(outcome)).toBe(401);
    expect(outcome.body).toEqual({ error: expect.any(String) });
  });
  it.each(multiDoor)('%s answers the same at every door', (_name, route) => expectDoorsAgree(p.outcomes, route));
});

describe('with a key in the URL', () => {
  const p = phase(() => true, (c) => request(c, { target: `${c.path}?api_key=${FAKE_KEY}` }));
  beforeAll(p.run, 30_000);
  it.each(p.table)('%s answers 401, saying keys go in the Authorization header', (_name, c) => {
    const outcome = p.outcomes.get(c)!;
    expect(outcome.status, seen(outcome)).toBe(401);
    expect(outcome.body).toEqual({ error: KEY_IN_URL_REFUSAL });
  });
});

describe('outside the contracts: the site, the API document, an unmatched path', () => {
  const table = sitePaths.map((each) => [each.name, each] as const);
  const plain = new Map<string, Outcome>();
  const keyed = new Map<string, Outcome>();
  beforeAll(async () => {
    await Promise.all(sitePaths.map(async (each) => {
      plain.set(each.name, await send(server.url, each.request));
      keyed.set(each.name, await send(server.url, { ...each.request, target: `${each.request.target}?api_key=${FAKE_KEY}` }));
    }));
  }, 30_000);
  it.each(table)('%s answers as it does', (name, each) => {
    expect(plain.get(name)!.status, seen(plain.get(name)!)).toBe(each.status);
    expect(plain.get(name)!.headers.get('x-request-id')).toEqual(expect.any(String));
  });
  it.each(table)('%s with a key in the URL answers 401, saying keys go in the Authorization header', (name, each) => {
    const outcome = keyed.get(name)!;
    expect(outcome.status, seen(outcome)).toBe(401);
    // A HEAD answer has no body to read.
    if (each.request.method !== 'HEAD') expect(outcome.body).toEqual({ error: KEY_IN_URL_REFUSAL });
  });
});

describe.each([
  ['a foreign Origin', { origin: 'http://evil.example' }],
  ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
])('a session state change with %s', (_what, headers) => {
  const p = phase((c) => isSessionStateChange(c.route), (c) => request(c, { headers: { ...passing(c.route), ...headers } }));
  beforeAll(p.run, 30_000);
  it.each(p.table.filter(([, c]) => c.door !== 'socket'))('%s answers 403 {error}', (_name, c) => {
    const outcome = p.outcomes.get(c)!;
    expect(outcome.status, seen(outcome)).toBe(403);
    expect(outcome.body).toEqual({ error: expect.stringMatching(/^cross-site request refused/) });
  });
  // By design, not a drift: a handshake from another site's page (or one its browser calls
  // cross-site) connects, but as anonymous: its cookie is never read (socket-handshake.ts), since
  // a watcher may embed the lobby list; so the command meets no session and is 401, where REST,
  // which sees the cookie and the Origin in the same request, refuses the state change 403.
  it.each(p.table.filter(([, c]) => c.door === 'socket'))('%s answers 401 {error}: the cross-site socket is anonymous', (_name, c) => {
    const outcome = p.outcomes.get(c)!;
    expect(outcome.status, seen(outcome)).toBe(401);
    expect(outcome.body).toEqual({ error: expect.any(String) });
  });
});

describe('a malformed body', () => {
  const p = phase((c) => takesBody(c.route), (c) => request(c, { headers: passing(c.route), body: bodyFor(c.route, true) }));
  beforeAll(p.run, 30_000);
  it.each(p.table)('%s answers 400 {error}', (_name, c) => {
    const outcome = p.outcomes.get(c)!;
    expect(outcome.status, seen(outcome)).toBe(400);
    expect(outcome.body).toEqual({ error: expect.any(String) });
  });
  // A socket frame is never broken JSON (socket.io parses it): its malformed body is a payload that is not an object, named by its own message.
  it.each(multiDoor.filter(([, route]) => takesBody(route)))('%s answers the same at every door', (_name, route) => expectDoorsAgree(p.outcomes, route, (door) => door === 'socket'));
});

/** Whether the credential this test presents to the route cannot be checked without the store. */
type Store = 'redis' | 'postgres';
function needs(route: RouteContract, store: Store): boolean {
  const credential = passing(route);
  // Sessions and key rate limits live in Redis; keys are looked up in Postgres.
  if (store === 'redis') return credential.cookie !== undefined || credential.authorization !== undefined;
  return credential.authorization !== undefined;
}

/** The readiness probe reports a store that is down in its own body. */
const isReadiness = (route: RouteContract) => route.operationId === 'readyz';

/**
 * The reads answered with both stores up, and the statements each sent: a read that answers the same
 * with a store down (a 503 "not configured") never needed it. Every cache is stale first, as in the
 * store phases, so that what a read needs from Postgres is asked of it here too.
 */
const healthy = phase((c) => c.route.method === 'get', (c) => request(c, { headers: passing(c.route) }));
beforeAll(async () => {
  clock.advanceMs(61_000);
  await healthy.run();
}, 30_000);
const unchanged = (c: DoorCase, outcome: Outcome) => {
  const before = healthy.outcomes.get(c);
  return before !== undefined && before.status === outcome.status && JSON.stringify(before.body) === JSON.stringify(outcome.body);
};

/** 503 `{error}` with Retry-After: 1 (an ack carries it as `retry_after_s`, see socket-door.ts). */
function expectUnavailable(c: DoorCase, outcome: Outcome): void {
  expect(outcome.status, seen(outcome)).toBe(503);
  expect(outcome.headers.get('retry-after'), seen(outcome)).toBe('1');
  expect(outcome.body).toEqual({ error: expect.any(String) });
}

/** A lobby command with a session cookie answers 503 (its session must be read from the store), null while it does not. */
async function sessionRefusedForStore(): Promise<true | null> {
  const outcome = await send(server.url, { method: 'POST', target: '/api/lobbies/ZZZZZZ/chat', headers: { cookie: admin.cookie }, body: { contentType: 'application/json', text: '{}' } });
  return outcome.status === 503 ? true : null;
}

function storeDown(store: Store, timeoutMs: number, stop: () => void | Promise<void>, start: () => void | Promise<void>) {
  const strict = store === 'postgres';
  const p = phase(() => true, (c) => request(c, { headers: passing(c.route) }));
  beforeAll(async () => {
    // Every cache (public reads 30 s, recent sessions and users 0.5 s) is stale: each read asks the store.
    clock.advanceMs(61_000);
    await p.open();
    await stop();
    // The lobby routes act on a session copy the server knew current up to RECENT_MAX_AGE_MS ago
    // (src/identity/checked-reads.ts): past that bound, every cookie must be read from the store.
    if (store === 'redis') await until('the session copies past their bound', sessionRefusedForStore, 5_000);
    try {
      await p.run();
    } finally {
      await start();
      await until('the server ready again', () => fetch(`${server.url}/readyz`).then((r) => (r.status === 200 ? true : null)), 15_000);
    }
  }, 60_000);
  const what = strict ? 'when it needs the store, else what it answers with the store up' : 'when it needs the store';
  it.each(p.table)(`%s answers within ${timeoutMs} ms + ${MARGIN_MS} ms, never 500, and 503 {error} with Retry-After ${what}`, (_name, c) => {
    const outcome = p.outcomes.get(c)!;
    expect(outcome.ms, seen(outcome)).toBeLessThan(timeoutMs + MARGIN_MS);
    expect(outcome.status, seen(outcome)).not.toBe(500);
    if (needs(c.route, store)) expect(outcome.status, seen(outcome)).toBe(503);
    // The readiness probe's 503 is its documented report, not a refusal.
    if (isReadiness(c.route)) return;
    const touches = healthy.touchesPostgres(c.route);
    // A read run with both stores up: what it sent decides what it must answer with Postgres stopped.
    if (strict && touches !== undefined) return expectPostgresStoppedAnswer(c, outcome, healthy.outcomes.get(c)!, touches, Object.keys(passing(c.route)).length > 0);
    if (outcome.status >= 500 && !unchanged(c, outcome)) expectUnavailable(c, outcome);
  });
  it.each(multiDoor)('%s answers the same at every door', (_name, route) => expectDoorsAgree(p.outcomes, route));
  return p;
}

describe('with Postgres stopped', () => {
  const p = storeDown('postgres', DATABASE_TIMEOUT_MS, () => proxy.refuse(), () => proxy.restore());
  it.each(table.filter(([, c]) => c.route.publicCache && c.route.path !== '/api/public/lobbies'))('the public read %s answers 503', (_name, c) => {
    expect(p.outcomes.get(c)!.status).toBe(503);
  });
});

describe('with Redis stopped', () => {
  const p = storeDown('redis', REDIS_TIMEOUT_MS, () => redis.kill(), () => redis.restart());
  it.each(table.filter(([, c]) => c.route.path === '/api/public/lobbies' || c.route.path === '/api/public/summary'))('the public read %s answers 503', (_name, c) => {
    expect(p.outcomes.get(c)!.status).toBe(503);
  });
});

// After the other store phases: the run with both stores up changes what it may (it revokes keys they present).
describe('with Postgres stopped and a session made before', () => {
  // Each run spends its own fresh session of SESSION_ADMIN: a route may end it (logout) or change its user.
  const sessions = { down: '', up: '' };
  const login = async () => (await server.login(SESSION_ADMIN)).cookie;
  const down = phase(() => true, (c) => request(c, { headers: { cookie: sessions.down } }));
  const up = phase(() => true, (c) => request(c, { headers: { cookie: sessions.up } }));
  beforeAll(async () => {
    const user = await server.login(SESSION_ADMIN);
    await grantPremium(server, user.user.id, clock.now(), 365);
    sessions.down = await login();
    clock.advanceMs(61_000);
    await down.open();
    proxy.refuse();
    try {
      await down.run();
    } finally {
      proxy.restore();
      await until('the server ready again', () => fetch(`${server.url}/readyz`).then((r) => (r.status === 200 ? true : null)), 15_000);
    }
    // What each route answers this session with both stores up: after, so that no route's success changes what the stopped run met.
    sessions.up = await login();
    clock.advanceMs(61_000);
    await up.open();
    await up.run();
  }, 60_000);
  it.each(down.table)(`%s answers within ${DATABASE_TIMEOUT_MS} ms + ${MARGIN_MS} ms what it answers with Postgres up, or 503 {error} with Retry-After`, (_name, c) => {
    const outcome = down.outcomes.get(c)!;
    const normal = up.outcomes.get(c)!;
    expect(outcome.ms, seen(outcome)).toBeLessThan(DATABASE_TIMEOUT_MS + MARGIN_MS);
    expect(outcome.status, seen(outcome)).not.toBe(500);
    // The readiness probe reports the store in its own 503 body.
    if (isReadiness(c.route)) return expect(outcome.status).toBe(503);
    // The session held for the whole run: a route that takes it was not refused for want of one.
    if (acceptsSession(c.route) && !endsSession(c.route)) expect(normal.status, seen(normal)).not.toBe(401);
    const touches = up.touchesPostgres(c.route);
    // A socket-only command: no statement count; it answers 503 or what it answers with Postgres up.
    if (touches === undefined) {
      if (outcome.status === 503) return expectUnavailable(c, outcome);
      return expect({ status: outcome.status, body: shape(outcome.body) }, `${seen(outcome)}; with Postgres up: ${seen(normal)}`).toEqual({ status: normal.status, body: shape(normal.body) });
    }
    expectPostgresStoppedAnswer(c, outcome, normal, touches, acceptsSession(c.route));
  });
});

describe('during a shutdown, on connections kept alive from before it', () => {
  const answers = new Map<DoorCase, { response: RawResponse | Error; closed: boolean }>();
  const siteAnswers = new Map<string, { response: RawResponse | Error; closed: boolean }>();
  const sites = sitePaths.filter((each) => each.request.method !== 'HEAD');
  const acks = phase((c) => c.door === 'socket', (c) => request(c, { headers: passing(c.route) }));
  beforeAll(async () => {
    await acks.open();
    const connections = await inParallel([...httpCases, ...sites], WIDTH, async () => {
      const connection = await KeepAliveConnection.open(server.server.port);
      // Served once: the server accepted this connection before it stopped accepting.
      await connection.exchange('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      return connection;
    });
    const closing = server.server.close();
    try {
      // All at once: a connection left idle past uWS's idle timeout would be closed by it, not by the shutdown.
      const [results, siteResults] = await Promise.all([
        inParallel(httpCases, httpCases.length, (c) => sendOnKept(connections[httpCases.indexOf(c)], request(c, { headers: passing(c.route) }))),
        inParallel(sites, sites.length, (each) => sendOnKept(connections[httpCases.length + sites.indexOf(each)], each.request)),
        // Sockets connected before it: a command is refused like a request, before the sockets are closed.
        acks.run(),
      ]);
      httpCases.forEach((c, i) => answers.set(c, results[i]));
      sites.forEach((each, i) => siteAnswers.set(each.name, siteResults[i]));
    } finally {
      for (const connection of connections) connection.close();
      await closing;
    }
  }, 60_000);
  it.each(acks.table)('%s acknowledges 503 {error}', (_name, c) => expectUnavailable(c, acks.outcomes.get(c)!));
  const expectRefusedAndClosed = ({ response, closed }: { response: RawResponse | Error; closed: boolean }) => {
    if (response instanceof Error) throw response;
    expect(response.status).toBe(503);
    expect(response.header('connection')).toBe('close');
    expect(response.header('retry-after')).toBe('1');
    expect(JSON.parse(response.body)).toEqual({ error: expect.any(String) });
    expect(closed).toBe(true);
  };
  it.each(table.filter(([, c]) => c.door !== 'socket'))('%s answers 503 {error} with Connection: close, and closes the connection', (_name, c) => expectRefusedAndClosed(answers.get(c)!));
  it.each(sites.map((each) => [each.name] as const))('%s answers 503 {error} with Connection: close, and closes the connection', (name) => expectRefusedAndClosed(siteAnswers.get(name)!));
});
