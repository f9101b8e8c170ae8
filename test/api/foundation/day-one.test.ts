import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/test-server';

describe('a first start with demo data and DEV_LOGIN=1', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ DEV_LOGIN: '1', SEED_DEMO_DATA: 'auto' });
  });
  afterAll(() => t?.close());

  it('opens a gathering demo lobby with demo players in it and votes cast', async () => {
    const lobbies = await fetch(`${t.url}/api/public/lobbies`).then((r) => r.json());
    const demo = lobbies.find((l: { name: string }) => l.name === 'Demo lobby: join in');
    expect(demo).toBeDefined();
    const detail = await fetch(`${t.url}/api/lobbies/${demo.code}`).then((r) => r.json());
    expect(detail.phase).toBe('gathering');
    expect(detail.pool.length).toBeGreaterThanOrEqual(5);
    expect(Object.values(detail.votes as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('serves the live page with the play-as form and the create-lobby button', async () => {
    const html = await fetch(`${t.url}/`).then((r) => r.text());
    expect(html).toContain('id="dev-login"');
    expect(html).toContain('action="/auth/dev"');
    expect(html).toContain('id="create-lobby"');
    expect((await fetch(`${t.url}/assets/play.js`)).status).toBe(200);
  });
});
