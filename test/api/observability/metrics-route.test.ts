import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/test-server';
import { labelValues, parsePrometheusText, valueOf, type Sample } from '../../support/prometheus-text';
import { closeAllClients, connect, request } from '../../realtime/support/socket-client';
import { entry, sendLogs, useLogWorld } from './client-log-client';

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await fetch(`${url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text()).samples;
}

describe('/metrics without METRICS_TOKEN', () => {
  const t = useLogWorld();
  afterEach(() => closeAllClients());

  it('answers a loopback client with every metric family of the contract, as strict Prometheus text', async () => {
    const response = await fetch(`${t.url}/metrics`);
    const { types } = parsePrometheusText(await response.text());
    expect(Object.fromEntries([...types].filter(([name]) => !name.startsWith('process_') && !name.startsWith('nodejs_')))).toEqual({
      http_requests_total: 'counter',
      http_request_duration_seconds: 'histogram',
      socketio_connections: 'gauge',
      lobby_commands_total: 'counter',
      live_store_call_duration_seconds: 'histogram',
      live_store_call_errors_total: 'counter',
      db_query_duration_seconds: 'histogram',
      db_query_errors_total: 'counter',
      client_log_entries_total: 'counter',
      client_log_entries_deleted_total: 'counter',
      notification_outbox_backlog: 'gauge',
    });
    expect(types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(types.get('process_cpu_seconds_total')).toBe('counter');
  });

  it('refuses a client that is not on loopback with 403', async () => {
    const response = await fetch(`${t.url}/metrics`, { headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBeTypeOf('string');
  });

  it('lobby commands are counted by type and outcome, and no lobby code becomes a label', async () => {
    const before = await scrape(t.url);
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const host = await t.world.player();
      const guest = await t.world.player();
      const code = (await host.post('/api/lobbies', {})).body.code as string;
      codes.push(code);
      await guest.command(code, 'join');
      await guest.command(code, 'join', {}, 409);
    }
    const after = await scrape(t.url);
    expect(valueOf(after, 'lobby_commands_total', { type: 'join', outcome: 'ok' }) - valueOf(before, 'lobby_commands_total', { type: 'join', outcome: 'ok' })).toBe(3);
    expect(valueOf(after, 'lobby_commands_total', { type: 'join', outcome: 'refused' }) - valueOf(before, 'lobby_commands_total', { type: 'join', outcome: 'refused' })).toBe(3);
    const labelText = after.flatMap((s) => Object.values(s.labels)).join(' ');
    for (const code of codes) expect(labelText).not.toContain(code);
    expect(labelValues(after, 'lobby_commands_total', 'outcome').size).toBeLessThanOrEqual(4);
  });

  it('database and live-store calls and stored client log entries grow with traffic', async () => {
    const before = await scrape(t.url);
    expect((await sendLogs(t.url, { entries: [entry(), entry()] })).status).toBe(204);
    const after = await scrape(t.url);
    expect(valueOf(after, 'client_log_entries_total') - valueOf(before, 'client_log_entries_total')).toBe(2);
    expect(valueOf(after, 'db_query_duration_seconds_count', { statement: 'insert' })).toBeGreaterThan(valueOf(before, 'db_query_duration_seconds_count', { statement: 'insert' }));
    expect(valueOf(after, 'live_store_call_duration_seconds_count', { operation: 'hitWindow' })).toBeGreaterThan(valueOf(before, 'live_store_call_duration_seconds_count', { operation: 'hitWindow' }));
  });

  it('HTTP requests are counted by route template, never by the raw path with its ids', async () => {
    const before = await scrape(t.url);
    const codes = ['QZ11', 'QZ22', 'QZ33', 'QZ44'];
    for (const code of codes) expect((await fetch(`${t.url}/api/lobbies/${code}`)).status).toBe(404);
    const missingUsers = ['76561190000000001', '76561190000000002'];
    for (const id of missingUsers) expect((await fetch(`${t.url}/api/users/${id}`)).status).toBe(404);
    expect((await fetch(`${t.url}/no/such/path/QZ55`)).status).toBe(404);
    const after = await scrape(t.url);
    const grown = (labels: Record<string, string>) => valueOf(after, 'http_requests_total', labels) - valueOf(before, 'http_requests_total', labels);
    expect(grown({ method: 'GET', route: '/api/lobbies/:code', status: '404' })).toBe(codes.length);
    expect(grown({ method: 'GET', route: '/api/users/:platformId', status: '404' })).toBe(missingUsers.length);
    expect(grown({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(valueOf(after, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/lobbies/:code', status: '404' })).toBeGreaterThanOrEqual(codes.length);
    const routes = labelValues(after, 'http_requests_total', 'route');
    for (const raw of [...codes, ...missingUsers, 'QZ55']) for (const route of routes) expect(route).not.toContain(raw);
  });

  it('socket.io connections are a gauge of the clients connected now', async () => {
    const socket = await connect(t.url);
    await request(socket, 'lobbies:subscribe');
    expect(valueOf(await scrape(t.url), 'socketio_connections')).toBe(1);
    socket.close();
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  const token = 'metrics-token-for-tests-0123456789';
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN: token });
  }, 60_000);
  afterAll(() => server?.close());

  it('answers 401 without the token or with another one, and the metrics with it', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer not-the-token-at-all-000' } })).status).toBe(401);
    expect((await scrape(server.url, { authorization: `Bearer ${token}` })).length).toBeGreaterThan(0);
  });
});
