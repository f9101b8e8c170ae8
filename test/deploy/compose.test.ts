import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, loadConfig } from '../../src/config/config';

/**
 * No Docker engine here: these read docker-compose.yml, the Dockerfile and the nginx config as
 * Docker and nginx would, and check that every service has what it needs.
 */
interface Service {
  image?: string;
  build?: unknown;
  command?: string | string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] | string };
  deploy?: { replicas?: number | string };
}

async function compose(): Promise<{ services: Record<string, Service> }> {
  return parse(await readFile('docker-compose.yml', 'utf8'), { merge: true });
}

/** `${VAR:-default}`, `${VAR:?message}` and `${VAR}` as compose substitutes them, from `env`. */
function substitute(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_all, name: string, kind?: string, rest?: string) => {
    if (env[name]) return env[name];
    if (kind === '?') throw new Error(`compose refuses: ${name} unset (${rest})`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

describe('docker-compose.yml', () => {
  it('gives every service an image or a build, and builds the app image once', async () => {
    const { services } = await compose();
    for (const [name, service] of Object.entries(services)) expect(service.image ?? service.build, name).toBeTruthy();
    expect(Object.values(services).filter((s) => s.build)).toHaveLength(1);
    expect(services.app.build).toBeTruthy();
    expect(services.app.image).toBe('league-server:latest');
  });

  it('orders start-up by health checks: whatever a service waits for has a health check, and nothing sleeps', async () => {
    const { services } = await compose();
    for (const [name, service] of Object.entries(services)) {
      const deps = service.depends_on ?? {};
      expect(Array.isArray(deps), `${name} depends_on must name conditions`).toBe(false);
      for (const [dep, { condition }] of Object.entries(deps)) {
        expect(condition, `${name} -> ${dep}`).toBe('service_healthy');
        expect(services[dep]?.healthcheck, `${dep} has a health check`).toBeDefined();
      }
      expect(JSON.stringify(service.command ?? '')).not.toMatch(/sleep/);
    }
    expect(Object.keys(services.app.depends_on!).sort()).toEqual(['postgres', 'redis']);
  });

  it('runs the compiled server from the image, not npm or a bind-mounted source', async () => {
    const { services } = await compose();
    expect(services.app.command).toBeUndefined();
    expect(JSON.stringify(services.app)).not.toContain('npm');
    expect(JSON.stringify((services.app as { volumes?: string[] }).volumes ?? [])).not.toMatch(/\.\/:\/app/);
  });

  it('sets the production variables, the session secret from the environment, and passes the production guards', async () => {
    const { services } = await compose();
    const env = services.app.environment!;
    expect(env.NODE_ENV).toBe('production');
    expect(env.SEED_DEMO_DATA).toBe('never');
    expect(env.CLOUD_PROVIDER).toBeDefined();
    expect(env.SESSION_SECRET).toMatch(/^\$\{SESSION_SECRET:\?/);
    expect(() => substitute(env.SESSION_SECRET, {})).toThrow(/SESSION_SECRET/);
    const operator = { SESSION_SECRET: 's'.repeat(40), HETZNER_API_TOKEN: 'token' };
    const resolved = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, substitute(String(v), operator)]));
    const config = loadConfig(resolved);
    expect(config.databaseUrl).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(config.seedDemoData).toBe(false);
    // Without a cloud token the default provider refuses with one line naming it.
    const noToken = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, substitute(String(v), { SESSION_SECRET: 's'.repeat(40) })]));
    expect(() => loadConfig(noToken)).toThrow(ConfigError);
  });

  it('says how many app instances run in one place, which nginx resolves', async () => {
    const { services } = await compose();
    expect(substitute(String(services.app.deploy?.replicas), {})).toBe('2');
    const conf = await readFile('deploy/nginx.conf', 'utf8');
    expect(conf).toMatch(/server app:8080 resolve/);
    expect(conf).toMatch(/resolver 127\.0\.0\.11/);
    expect(conf).toContain('ip_hash');
    expect(conf).toMatch(/proxy_set_header Upgrade \$http_upgrade/);
  });

  it('keeps Postgres 15 or later and Redis with appendonly', async () => {
    const { services } = await compose();
    expect(JSON.stringify(services.redis.command)).toContain('--appendonly');
    expect(Number(String(services.postgres.image).split(':')[1])).toBeGreaterThanOrEqual(15);
  });

  it('the proxy buffers request bodies, so uWS never sees a chunked one, and bounds request heads', async () => {
    const conf = await readFile('deploy/nginx.conf', 'utf8');
    const main = conf.slice(conf.indexOf('location / {'), conf.indexOf('}', conf.indexOf('location / {')));
    expect(main).toContain('proxy_request_buffering on;');
    expect(main).toContain('client_max_body_size 1m;');
    expect(conf).toMatch(/large_client_header_buffers 4 8k;/);
  });
});

describe('Dockerfile', () => {
  it('is multi-stage: install, build, and a slim runtime running the bundled server from dist/ under tini', async () => {
    const text = await readFile('Dockerfile', 'utf8');
    const stages = [...text.matchAll(/^FROM\s+(\S+)(?:\s+AS\s+(\w+))?/gim)].map((m) => ({ image: m[1], name: m[2] }));
    expect(stages.map((s) => s.name)).toEqual(['deps', 'build', 'runtime']);
    expect(stages[2].image).toMatch(/slim/);
    const runtime = text.slice(text.search(/^FROM .* AS runtime/m));
    expect(runtime).toMatch(/ENTRYPOINT \["\/usr\/bin\/tini", "--"\]/);
    expect(runtime).toMatch(/CMD \["node", "dist\/server\/start\.js"\]/);
    expect(runtime).toMatch(/COPY --from=build \/app\/dist/);
    expect(runtime).not.toMatch(/npm (ci|install|start)/);
    expect(runtime).toMatch(/^USER node$/m);
  });

  it('copies every source folder the build compiles', async () => {
    const text = await readFile('Dockerfile', 'utf8');
    const build = JSON.parse(await readFile('tsconfig.build.json', 'utf8')) as { include: string[] };
    for (const dir of build.include) expect(text).toContain(`COPY ${dir} ./${dir}`);
  });
});
