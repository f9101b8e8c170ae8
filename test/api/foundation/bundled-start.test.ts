import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type SpawnedServer } from '../../support/spawn-server';
import { closeAllClients, connect, request } from '../../realtime/support/socket-client';

/**
 * Loaded before the bundle: prints each module resolved to a file under node_modules, so a test
 * can see which packages the bundle still loads from there.
 */
const REPORT_PACKAGE_LOADS = (() => {
  const hooks = `export async function resolve(specifier, context, next) {
    const resolved = await next(specifier, context);
    if (resolved.url.includes('/node_modules/')) process.stderr.write('resolved ' + resolved.url + '\\n');
    return resolved;
  }`;
  const registration = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  return `data:text/javascript,${encodeURIComponent(registration)}`;
})();

/**
 * What `npm start` runs is the bundle scripts/bundle-server.mjs makes (dist/server/), not the
 * modules the other suites load. Bundled here into a folder of the project's own (the bundle
 * finds node_modules by walking up) and started on embedded defaults, as a newcomer would.
 */
describe('the bundled server (npm start)', () => {
  let bundle: string;
  let dataDir: string;
  let server: SpawnedServer;
  beforeAll(async () => {
    bundle = await mkdtemp(join(process.cwd(), 'node_modules', '.cache', 'bundle-test-'));
    await promisify(execFile)(process.execPath, ['scripts/bundle-server.mjs', bundle]);
    dataDir = await mkdtemp(join(tmpdir(), 'league-bundled-'));
    server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }, 90_000, ['--import', REPORT_PACKAGE_LOADS, join(bundle, 'start.js')]);
  }, 150_000);
  afterAll(async () => {
    closeAllClients();
    await server?.stop('SIGKILL');
    await rm(bundle, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reads the embedded database through the bundled ORM: the demo league is there', async () => {
    const summary = await fetch(`${server.url}/api/public/summary`).then((r) => r.json());
    expect(summary.stats.total_users).toBeGreaterThan(0);
    expect(server.output()).toContain('"database":"embedded"');
  });

  it('loads one copy of its ORM: nothing of MikroORM or its query builder from node_modules', () => {
    const fromNodeModules = [...server.output().matchAll(/^resolved (\S+)$/gm)].map(([, url]) => url);
    expect(fromNodeModules).toContainEqual(expect.stringContaining('/node_modules/uWebSockets.js/'));
    expect(fromNodeModules.filter((url) => /\/node_modules\/(@mikro-orm|kysely)\//.test(url))).toEqual([]);
  });

  it('keeps its code ASCII, which V8 holds at one byte a character', async () => {
    const chunks = (await readdir(bundle)).filter((name) => name.endsWith('.js'));
    expect(chunks).toContain('start.js');
    for (const name of chunks) {
      const nonAscii = /[^\x00-\x7f]/.exec(await readFile(join(bundle, name), 'utf8'));
      expect(nonAscii, name).toBeNull();
    }
  });

  it('serves the live page and the socket.io client it loads', async () => {
    const page = await fetch(`${server.url}/lobby/AB12`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/socket.io/socket.io.min.js');
    const client = await fetch(`${server.url}/socket.io/socket.io.min.js`);
    expect(client.status).toBe(200);
    expect(await client.text()).toContain('io');
  });

  it('serves the OpenAPI document built from the route contracts', async () => {
    const document = await fetch(`${server.url}/openapi.json`).then((r) => r.json());
    expect(document.openapi).toMatch(/^3\.1/);
    expect(Object.keys(document.paths).length).toBeGreaterThan(50);
  });

  it('answers a socket.io client over websocket', async () => {
    const socket = await connect(server.url);
    expect(await request(socket, 'lobbies:subscribe')).toEqual({ lobbies: expect.any(Array) });
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toContain('"msg":"closed"');
  });
});
