import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { spawnServerProcess } from '../../support/spawn-server';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Everything production needs; each case breaks exactly one rule. Nothing listens: the refusal comes first. */
async function productionEnv(): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'league-prod-'));
  dirs.push(dir);
  return {
    NODE_ENV: 'production',
    DATA_DIR: dir,
    PORT: '0',
    SESSION_SECRET: 's'.repeat(40),
    CLOUD_PROVIDER: 'hetzner',
    HETZNER_API_TOKEN: 'token',
    DATABASE_URL: 'postgres://postgres@127.0.0.1:1/never',
    REDIS_URL: 'redis://127.0.0.1:1',
  };
}

async function refusal(change: Record<string, string | undefined>): Promise<{ code: number | null; lines: string[] }> {
  const env = { ...(await productionEnv()), ...change };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const { exited, output } = spawnServerProcess(env as Record<string, string>);
  const code = await exited;
  return { code, lines: output().trim().split('\n').filter((l) => l && !l.includes('npm warn')) };
}

describe('a production start', () => {
  // Five processes that each load the whole server to refuse: side by side, not one after another.
  it.concurrent.for([
    ['SESSION_SECRET', { SESSION_SECRET: undefined }],
    ['DEV_LOGIN', { DEV_LOGIN: '1' }],
    ['CLOUD_PROVIDER', { CLOUD_PROVIDER: 'local' }],
    ['DATABASE_URL', { DATABASE_URL: undefined }],
    ['REDIS_URL', { REDIS_URL: undefined }],
  ] as const)('is refused with one line naming %s and a non-zero exit', async ([variable, change], { expect }) => {
    const { code, lines } = await refusal(change);
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^invalid configuration: ${variable}: `));
  });
});
