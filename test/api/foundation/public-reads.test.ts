import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { LobbySummary } from '../../../schema/lobby';
import { Announcement, ChangelogEntry, GlobalStats, LeaderRow, MatchDetail, MatchesPage, MatchPlayer } from '../../../schema/public';
import { seedDemo } from '../../../src/composition/demo-seed';
import { startTestServer, type TestServer } from '../../support/test-server';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  await seedDemo(t.database.db, new Date());
});
afterAll(() => t?.close());

async function get(path: string) {
  const res = await fetch(t.url + path);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const publicPaths = [
  '/api/public/summary',
  '/api/public/lobbies',
  '/api/public/leaderboard',
  '/api/public/matches',
  '/api/public/match/1',
  '/api/public/match/1/players',
  '/api/public/changelog',
  '/api/public/announcements/active',
  '/api/users/stats/global',
];

describe('public reads', () => {
  it.each(publicPaths)('%s answers 200 with a 30 second public cache lifetime', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('the summary carries the global statistics of the demo league', async () => {
    const { body } = await get('/api/public/summary');
    const stats = v.parse(GlobalStats, body.stats);
    expect(stats.total_users).toBe(12);
    expect(stats.total_matches).toBe(8);
    expect(stats.active_lobbies).toBe(0);
  });

  it('the users global stats are the summary stats', async () => {
    const [summary, global] = await Promise.all([get('/api/public/summary'), get('/api/users/stats/global')]);
    expect(global.body).toEqual(summary.body.stats);
  });

  it('open lobbies are an array of lobby summaries', async () => {
    const { body } = await get('/api/public/lobbies');
    expect(v.parse(v.array(LobbySummary), body)).toEqual([]);
  });

  it('the leaderboard is ranked by ELO, highest first, at most 100 rows', async () => {
    const { body } = await get('/api/public/leaderboard');
    const rows = v.parse(v.array(LeaderRow), body);
    expect(rows.length).toBe(12);
    expect(rows.map((r) => r.rank)).toEqual(rows.map((_, i) => i + 1));
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1].elo).toBeGreaterThanOrEqual(rows[i].elo);
  });

  it('matches default to 50 per page, page 1, newest first', async () => {
    const { body } = await get('/api/public/matches');
    const page = v.parse(MatchesPage, body);
    expect(page).toMatchObject({ total: 8, page: 1, limit: 50 });
    expect(page.matches).toHaveLength(8);
    const ended = page.matches.map((m) => Date.parse(m.ended_at));
    expect([...ended].sort((a, b) => b - a)).toEqual(ended);
  });

  it('matches page through with limit and page', async () => {
    const first = v.parse(MatchesPage, (await get('/api/public/matches?limit=3&page=1')).body);
    const third = v.parse(MatchesPage, (await get('/api/public/matches?limit=3&page=3')).body);
    expect(first.matches).toHaveLength(3);
    expect(third.matches).toHaveLength(2);
    expect(third.page).toBe(3);
    expect(new Set([...first.matches, ...third.matches].map((m) => m.id)).size).toBe(5);
  });

  it('a matches limit over 200 is clamped to 200', async () => {
    expect((await get('/api/public/matches?limit=5000')).body.limit).toBe(200);
  });

  it('a matches limit or page under 1 is clamped to 1', async () => {
    const { body } = await get('/api/public/matches?limit=0&page=-4');
    expect(body).toMatchObject({ limit: 1, page: 1 });
  });

  it('a page past the end is empty but keeps the total', async () => {
    const { body } = await get('/api/public/matches?page=99');
    expect(body).toMatchObject({ matches: [], total: 8, page: 99 });
  });

  it('a limit that is not a number is a 400 naming the field', async () => {
    const res = await get('/api/public/matches?limit=lots');
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('limit');
  });

  it('match detail includes its players', async () => {
    const detail = v.parse(MatchDetail, (await get('/api/public/match/1')).body);
    expect(detail.id).toBe(1);
    expect(detail.players.length).toBe(detail.player_count);
  });

  it('match players are the same players as the detail', async () => {
    const detail = v.parse(MatchDetail, (await get('/api/public/match/2')).body);
    const players = v.parse(v.array(MatchPlayer), (await get('/api/public/match/2/players')).body);
    expect(players).toEqual(detail.players);
  });

  it.each(['/api/public/match/99999', '/api/public/match/99999/players', '/api/public/match/abc', '/api/public/match/abc/players'])(
    '%s is a 404 with an error body',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(typeof res.body.error).toBe('string');
    },
  );

  it('the changelog defaults to 20 entries, newest first', async () => {
    const entries = v.parse(v.array(ChangelogEntry), (await get('/api/public/changelog')).body);
    expect(entries).toHaveLength(5);
    const created = entries.map((e) => Date.parse(e.created_at));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
  });

  it('the changelog limit is honoured and clamped to 100', async () => {
    expect((await get('/api/public/changelog?limit=2')).body).toHaveLength(2);
    expect((await get('/api/public/changelog?limit=100000')).status).toBe(200);
    expect((await get('/api/public/changelog?limit=x')).status).toBe(400);
  });

  it('the active announcement is the one whose window contains now', async () => {
    const announcement = v.parse(Announcement, (await get('/api/public/announcements/active')).body);
    expect(announcement).toMatchObject({ active: true, title: 'Welcome to the league' });
  });
});

describe('errors', () => {
  it('an unknown route is a 404 with an error body', async () => {
    const res = await get('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not found' });
  });

  // Bodies are parsed by the route they reach (after its credential step), so the route must exist.
  it('malformed JSON is a 400 with an error body', async () => {
    const res = await fetch(t.url + '/api/premium/paypal-webhook', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'malformed JSON body' });
  });

  it('a body over 1 MB is refused with 413 before it is read', async () => {
    const res = await fetch(t.url + '/api/anything', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blob: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/over/);
  });

  it('a chunked body is refused with 411: its length must be known before it is buffered', async () => {
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":1}'));
        controller.close();
      },
    });
    const res = await fetch(t.url + '/api/anything', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(411);
    expect((await res.json()).error).toMatch(/send Content-Length/);
  });

  it('a body just under the limit still reaches the router', async () => {
    const res = await fetch(t.url + '/api/anything', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blob: 'x'.repeat(1000) }),
    });
    expect(res.status).toBe(404);
  });
});

describe('operations', () => {
  it('healthz says the process is up', async () => {
    expect(await get('/healthz')).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('readyz says the database and the live store answer', async () => {
    expect((await get('/readyz')).body).toEqual({ ok: true, database: true, live_store: true });
  });

  it('the OpenAPI document lists every public route with its responses', async () => {
    const { body } = await get('/openapi.json');
    expect(body.openapi).toBe('3.1.0');
    expect(body.paths['/api/public/match/{id}'].get.responses).toHaveProperty('404');
    expect(body.paths['/api/public/matches'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'page']);
  });

  it('the docs page renders the OpenAPI document', async () => {
    const res = await fetch(t.url + '/docs');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('/openapi.json');
  });
});
