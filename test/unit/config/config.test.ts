import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/config';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a configuration error');
}

/** A production environment that passes every guard; each guard test breaks one thing. */
const PRODUCTION: Record<string, string> = {
  NODE_ENV: 'production',
  SESSION_SECRET: 's'.repeat(40),
  CLOUD_PROVIDER: 'hetzner',
  HETZNER_API_TOKEN: 'token',
  DATABASE_URL: 'postgres://db/league',
  REDIS_URL: 'redis://redis:6379',
};

describe('configuration', () => {
  it('starts with the embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.dataDir).toBe('./data');
    expect(config.pluginSecret).toBeUndefined();
    expect(config.discord).toBeUndefined();
    expect(config.steam.openIdUrl).toBe('https://steamcommunity.com/openid/login');
    expect(config.logLevel).toBe('info');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PUBLIC_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['REDIS_URL', 'http://localhost:6379'],
    ['ADMIN_PLATFORM_IDS', '123,abc'],
    ['STEAM_OPENID_URL', 'steam'],
    ['LOG_LEVEL', 'loud'],
    ['SESSION_SECRET', 'short'],
    ['PLUGIN_SECRET', 'tiny'],
    ['NODE_ENV', 'staging'],
    ['PREMIUM_PRICE_3M', '4,99'],
    ['PREMIUM_PRICE_12M', '0'],
    ['PREMIUM_CURRENCY', 'euro'],
    ['PAYPAL_TIMEOUT_MS', 'soon'],
    ['POINTS_MATCH_PLAYED', '-5'],
    ['POINTS_MATCH_WON', 'many'],
    ['POINTS_CUSTOM_AVATAR_COST', '0'],
  ])('a bad %s stops start-up with one line naming it', (variable, value) => {
    const error = configError({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).not.toContain('\n');
  });

  it('pays 10 points a match and 15 more for a win, and prices a custom avatar at 500, unless configured', () => {
    expect(loadConfig({}).points).toEqual({ earning: { played: 10, won: 15 }, customAvatarCost: 500 });
    const configured = loadConfig({ POINTS_MATCH_PLAYED: '0', POINTS_MATCH_WON: '40', POINTS_CUSTOM_AVATAR_COST: '1200' });
    expect(configured.points).toEqual({ earning: { played: 0, won: 40 }, customAvatarCost: 1200 });
  });

  it('production requires SESSION_SECRET', () => {
    const error = configError({ NODE_ENV: 'production' });
    expect(error.variable).toBe('SESSION_SECRET');
  });

  it('production accepts a supplied SESSION_SECRET', () => {
    const config = loadConfig({ ...PRODUCTION, SESSION_SECRET: 'x'.repeat(40) });
    expect(config.sessionSecret).toBe('x'.repeat(40));
  });

  it.each([
    ['DEV_LOGIN', { DEV_LOGIN: '1' }],
    ['CLOUD_PROVIDER', { CLOUD_PROVIDER: 'local' }],
    ['DATABASE_URL', { DATABASE_URL: '' }],
    ['REDIS_URL', { REDIS_URL: '' }],
  ])('production refuses %s as set here, naming it', (variable, change) => {
    const error = configError({ ...PRODUCTION, ...change });
    expect(error.variable).toBe(variable);
    expect(error.message).not.toContain('\n');
  });

  it('production runs local game servers and embedded stores only when explicitly allowed', () => {
    const config = loadConfig({ ...PRODUCTION, CLOUD_PROVIDER: 'local', ALLOW_LOCAL_SERVERS: '1', DATABASE_URL: '', REDIS_URL: '', ALLOW_EMBEDDED: '1' });
    expect(config.servers.provider).toBe('local');
    expect(config.databaseUrl).toBeUndefined();
  });

  it('production never seeds demo data, whatever SEED_DEMO_DATA says', () => {
    expect(loadConfig({ ...PRODUCTION, SEED_DEMO_DATA: 'auto' }).seedDemoData).toBe(false);
    expect(loadConfig({ SEED_DEMO_DATA: 'auto' }).seedDemoData).toBe(true);
  });

  it('honours DEV_LOGIN=1 outside production only', () => {
    expect(loadConfig({ DEV_LOGIN: '1' }).devLogin).toBe(true);
    expect(loadConfig({}).devLogin).toBe(false);
  });

  it('the chat OAuth app needs both its id and its secret', () => {
    expect(configError({ DISCORD_CLIENT_ID: 'abc' }).variable).toBe('DISCORD_CLIENT_SECRET');
    expect(configError({ DISCORD_CLIENT_SECRET: 'abc' }).variable).toBe('DISCORD_CLIENT_ID');
  });

  it('reads admin platform ids as a set', () => {
    const config = loadConfig({ ADMIN_PLATFORM_IDS: '76561198000000001, 76561198000000002' });
    expect([...config.adminPlatformIds]).toEqual(['76561198000000001', '76561198000000002']);
  });

  it('reads plan prices as minor units of the configured currency', () => {
    expect(loadConfig({}).premium).toEqual({ prices: { '3m': 499, '6m': 899, '12m': 1499 }, currency: 'EUR' });
    const config = loadConfig({ PREMIUM_PRICE_3M: '5', PREMIUM_PRICE_6M: '9.5', PREMIUM_PRICE_12M: '17.99', PREMIUM_CURRENCY: 'USD' });
    expect(config.premium).toEqual({ prices: { '3m': 500, '6m': 950, '12m': 1799 }, currency: 'USD' });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', REDIS_URL: '' }).port).toBe(8080);
    expect(loadConfig({ REDIS_URL: '' }).redisUrl).toBeUndefined();
  });

  it('drops a trailing slash from PUBLIC_URL so return URLs compose', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://league.example/' }).publicUrl).toBe('https://league.example');
  });
});

describe('map storage configuration', () => {
  it('keeps maps under DATA_DIR when no bucket is set', () => {
    expect(loadConfig({}).mapStorage).toEqual({ kind: 'directory' });
  });

  it('uses an S3-compatible bucket when MAPS_S3_BUCKET is set', () => {
    const config = loadConfig({
      MAPS_S3_BUCKET: 'league-maps',
      MAPS_S3_ENDPOINT: 'http://127.0.0.1:9000/',
      MAPS_S3_ACCESS_KEY_ID: 'id',
      MAPS_S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.mapStorage).toEqual({
      kind: 's3',
      bucket: 'league-maps',
      prefix: 'maps/',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
  });

  it('leaves credentials to the SDK default chain when none are set', () => {
    expect(loadConfig({ MAPS_S3_BUCKET: 'league-maps' }).mapStorage).not.toHaveProperty('credentials');
  });

  it('needs both the access key id and the secret, or neither', () => {
    expect(configError({ MAPS_S3_BUCKET: 'b-1', MAPS_S3_ACCESS_KEY_ID: 'id' }).variable).toBe('MAPS_S3_SECRET_ACCESS_KEY');
  });

  it('refuses a bucket name S3 would refuse', () => {
    expect(configError({ MAPS_S3_BUCKET: 'Not_A_Bucket' }).variable).toBe('MAPS_S3_BUCKET');
  });
});
