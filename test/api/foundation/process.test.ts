import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { spawnServerProcess, startServerProcess } from '../../support/spawn-server';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'league-proc-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the server process', () => {
  it('a bad configuration value stops start-up with one line naming the variable', async () => {
    const { exited, output } = spawnServerProcess({ PORT: 'eighty', DATA_DIR: await dataDir() });
    expect(await exited).toBe(2);
    expect(output().trim().split('\n').filter((l) => !l.includes('npm warn'))).toEqual([
      'invalid configuration: PORT: PORT must be a port number',
    ]);
  });

  it('refuses to run on the uWS JavaScript fallback, saying why', async () => {
    const { exited, output } = spawnServerProcess({ UWS_USE_FALLBACK: '1', DATA_DIR: await dataDir() });
    expect(await exited).toBe(1);
    expect(output()).toContain('JavaScript fallback');
  });

  it('comes up on embedded defaults with demo data, and shuts down cleanly on SIGTERM', async () => {
    const server = await startServerProcess({ DATA_DIR: await dataDir(), LOG_LEVEL: 'info' }, 90_000);
    const summary = await fetch(`${server.url}/api/public/summary`).then((r) => r.json());
    expect(summary.stats.total_users).toBeGreaterThan(0);
    expect(summary.stats.total_matches).toBeGreaterThan(0);
    expect(server.output()).toContain('"build":"native"');
    expect(server.output()).toContain('"database":"embedded"');
    expect(server.output()).toContain('"liveStore":"memory"');
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toContain('"msg":"closed"');
  });

  it('a second instance on the same data dir without Redis refuses to start', async () => {
    const dir = await dataDir();
    const first = await startServerProcess({ DATA_DIR: dir }, 90_000);
    try {
      const second = spawnServerProcess({ DATA_DIR: dir, PORT: '0' });
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/REDIS_URL/);
    } finally {
      await first.stop();
    }
  });
});

describe('docker-compose.yml', () => {
  it('is valid YAML describing Postgres, Redis with appendonly, two app instances and a proxy', async () => {
    // Compose resolves YAML merge keys (<<), so the test does too.
    const doc = parse(await readFile('docker-compose.yml', 'utf8'), { merge: true });
    expect(Object.keys(doc.services).sort()).toEqual(['app1', 'app2', 'postgres', 'proxy', 'redis']);
    expect(doc.services.redis.command.join(' ')).toContain('--appendonly yes');
    expect(Number(String(doc.services.postgres.image).split(':')[1])).toBeGreaterThanOrEqual(15);
    for (const app of ['app1', 'app2']) {
      expect(doc.services[app].environment.DATABASE_URL).toMatch(/^postgres:\/\//);
      expect(doc.services[app].environment.REDIS_URL).toMatch(/^redis:\/\//);
    }
  });

  it('the proxy upgrades websockets and keeps a client on one instance', async () => {
    const conf = await readFile('deploy/nginx.conf', 'utf8');
    expect(conf).toContain('ip_hash');
    expect(conf).toMatch(/proxy_set_header Upgrade \$http_upgrade/);
    expect(conf).toContain('server app1:8080');
    expect(conf).toContain('server app2:8080');
  });

  it('the proxy buffers request bodies, so uWS never sees a chunked one, and bounds request heads', async () => {
    const conf = await readFile('deploy/nginx.conf', 'utf8');
    const main = conf.slice(conf.indexOf('location / {'), conf.indexOf('}', conf.indexOf('location / {')));
    expect(main).toContain('proxy_request_buffering on;');
    expect(main).toContain('client_max_body_size 1m;');
    expect(conf).toMatch(/large_client_header_buffers 4 8k;/);
  });
});
