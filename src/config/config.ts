import * as v from 'valibot';
import { DEFAULT_EARNING_RATES } from '../domain/points/match-earnings';
import { notifyConfig, notifyEnvEntries, type NotifyConfig } from '../notifications/notify-config';
import { productionRefusal } from './production-guards';

/**
 * The server's configuration, from the environment variables of docs/design/CONTRACT.md. Parsing is strict
 * so that a typo stops start-up with one line naming the variable instead of a half-working server.
 */
const optionalUrl = (name: string) =>
  v.optional(v.pipe(v.string(), v.trim(), v.url(`${name} must be a URL`)));
const urlWithDefault = (name: string, fallback: string) =>
  v.optional(v.pipe(v.string(), v.trim(), v.url(`${name} must be a URL`)), fallback);
const millisecondsText = (name: string) =>
  v.pipe(v.string(), v.regex(/^\d{2,7}$/, `${name} must be a whole number of milliseconds (10 or more)`), v.transform(Number), v.minValue(10, `${name} must be at least 10`));
const milliseconds = (name: string, fallback: string) => v.optional(millisecondsText(name), fallback);
const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)));
/** A price as a decimal amount ("8.99"), kept in minor units (899) so sums are exact. */
const price = (name: string, fallback: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d{1,6}(\.\d{1,2})?$/, `${name} must be a price such as 8.99`),
      v.transform((s) => Math.round(Number(s) * 100)),
      v.minValue(1, `${name} must be more than 0`),
    ),
    fallback,
  );
/** A count of anything (messages per window, sockets, subscriptions): the unit is the variable's. */
const positiveCount = (name: string, fallback: number) =>
  v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,6}$/, `${name} must be a whole number from 1 to 9999999`), v.transform(Number)), String(fallback));

/**
 * The per-user lobby limits' defaults, far above what a person in a real lobby does (a fast
 * drafter or chatter sends a few a second at most) and far below a script's thousands. Chat and
 * commands count per 10 s, creations per minute (src/identity/user-action-limit.ts has the windows).
 */
export const DEFAULT_USER_RATE_LIMITS = { chat: 20, command: 60, createsPerMinute: 10 } as const;
const pointsAmount = (name: string, fallback: string) =>
  v.optional(v.pipe(v.string(), v.regex(/^\d{1,5}$/, `${name} must be an integer from 0 to 99999`), v.transform(Number)), fallback);

const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test'], 'NODE_ENV must be development, production or test'), 'development'),
  PORT: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,5}$/, 'PORT must be a port number'), v.transform(Number), v.maxValue(65535, 'PORT must be at most 65535')),
    '8080',
  ),
  HOST: v.optional(v.pipe(v.string(), v.minLength(1, 'HOST must not be empty')), '127.0.0.1'),
  PUBLIC_URL: urlWithDefault('PUBLIC_URL', 'http://localhost:8080'),
  DATABASE_URL: v.optional(
    v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')),
  ),
  REDIS_URL: v.optional(v.pipe(v.string(), v.regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL'))),
  REDIS_PREFIX: v.optional(v.pipe(v.string(), v.regex(/^[\w:.-]{1,64}$/, 'REDIS_PREFIX must be 1-64 characters of letters, digits, _ : . -')), 'league:'),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1, 'DATA_DIR must not be empty')), './data'),
  SESSION_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'SESSION_SECRET must be at least 32 characters'))),
  PLUGIN_SECRET: v.optional(v.pipe(v.string(), v.minLength(16, 'PLUGIN_SECRET must be at least 16 characters'))),
  ADMIN_PLATFORM_IDS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\s*(\d{17}\s*(,\s*\d{17}\s*)*)?$/, 'ADMIN_PLATFORM_IDS must be comma-separated 17-digit platform ids'),
      v.transform((s) => s.split(',').map((id) => id.trim()).filter(Boolean)),
    ),
    '',
  ),
  STEAM_OPENID_URL: urlWithDefault('STEAM_OPENID_URL', 'https://steamcommunity.com/openid/login'),
  STEAM_API_URL: urlWithDefault('STEAM_API_URL', 'https://api.steampowered.com'),
  STEAM_API_KEY: optionalText,
  DISCORD_CLIENT_ID: optionalText,
  DISCORD_CLIENT_SECRET: optionalText,
  DISCORD_AUTHORIZE_URL: urlWithDefault('DISCORD_AUTHORIZE_URL', 'https://discord.com/oauth2/authorize'),
  DISCORD_TOKEN_URL: urlWithDefault('DISCORD_TOKEN_URL', 'https://discord.com/api/oauth2/token'),
  DISCORD_API_URL: urlWithDefault('DISCORD_API_URL', 'https://discord.com/api'),
  PAYPAL_CLIENT_ID: optionalText,
  PAYPAL_CLIENT_SECRET: optionalText,
  PAYPAL_API_URL: urlWithDefault('PAYPAL_API_URL', 'https://api-m.sandbox.paypal.com'),
  PAYPAL_WEBHOOK_ID: optionalText,
  PAYPAL_TIMEOUT_MS: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,6}$/, 'PAYPAL_TIMEOUT_MS must be milliseconds'), v.transform(Number), v.minValue(1, 'PAYPAL_TIMEOUT_MS must be at least 1')),
    '10000',
  ),
  CUP_FEE_GRACE_SECONDS: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,6}$/, 'CUP_FEE_GRACE_SECONDS must be seconds'), v.transform(Number), v.minValue(1, 'CUP_FEE_GRACE_SECONDS must be at least 1')),
    '600',
  ),
  PREMIUM_PRICE_3M: price('PREMIUM_PRICE_3M', '4.99'),
  PREMIUM_PRICE_6M: price('PREMIUM_PRICE_6M', '8.99'),
  PREMIUM_PRICE_12M: price('PREMIUM_PRICE_12M', '14.99'),
  PREMIUM_CURRENCY: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'PREMIUM_CURRENCY must be a three-letter currency code such as EUR')), 'EUR'),
  TRUST_PROXY: v.optional(
    v.pipe(v.string(), v.regex(/^[0-9a-fA-F:.,/\s]*$/, 'TRUST_PROXY must be comma-separated addresses or CIDR ranges')),
    '',
  ),
  MAPS_S3_BUCKET: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'MAPS_S3_BUCKET must be an S3 bucket name'))),
  MAPS_S3_ENDPOINT: optionalUrl('MAPS_S3_ENDPOINT'),
  MAPS_S3_REGION: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9-]{2,32}$/, 'MAPS_S3_REGION must be a region name like us-east-1')), 'us-east-1'),
  MAPS_S3_ACCESS_KEY_ID: optionalText,
  MAPS_S3_SECRET_ACCESS_KEY: optionalText,
  MAPS_S3_PREFIX: v.optional(v.pipe(v.string(), v.regex(/^[\w!.*'()/-]{0,200}$/, 'MAPS_S3_PREFIX must be an S3 key prefix')), 'maps/'),
  CLOUD_PROVIDER: v.optional(v.picklist(['local', 'hetzner'], 'CLOUD_PROVIDER must be local or hetzner'), 'local'),
  SERVER_REGION_CAPACITY: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'SERVER_REGION_CAPACITY must be a whole number'), v.transform(Number), v.minValue(1, 'SERVER_REGION_CAPACITY must be at least 1')),
    '8',
  ),
  HETZNER_API_URL: urlWithDefault('HETZNER_API_URL', 'https://api.hetzner.cloud/v1'),
  HETZNER_API_TOKEN: optionalText,
  HETZNER_IMAGE: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)), 'tf2-server'),
  HETZNER_SERVER_TYPE: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)), 'cpx21'),
  HETZNER_GAME_PORT: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,5}$/, 'HETZNER_GAME_PORT must be a port number'), v.transform(Number), v.minValue(1, 'HETZNER_GAME_PORT must be a port number'), v.maxValue(65535, 'HETZNER_GAME_PORT must be at most 65535')),
    '27015',
  ),
  POINTS_MATCH_PLAYED: pointsAmount('POINTS_MATCH_PLAYED', String(DEFAULT_EARNING_RATES.played)),
  POINTS_MATCH_WON: pointsAmount('POINTS_MATCH_WON', String(DEFAULT_EARNING_RATES.won)),
  POINTS_CUSTOM_AVATAR_COST: v.optional(
    v.pipe(v.string(), v.regex(/^[1-9]\d{0,5}$/, 'POINTS_CUSTOM_AVATAR_COST must be an integer from 1 to 999999'), v.transform(Number)),
    '500',
  ),
  SEED_DEMO_DATA: v.optional(v.picklist(['auto', 'never'], 'SEED_DEMO_DATA must be auto or never'), 'auto'),
  DEV_LOGIN: v.optional(v.picklist(['0', '1'], 'DEV_LOGIN must be 0 or 1')),
  ALLOW_LOCAL_SERVERS: v.optional(v.picklist(['0', '1'], 'ALLOW_LOCAL_SERVERS must be 0 or 1')),
  ALLOW_EMBEDDED: v.optional(v.picklist(['0', '1'], 'ALLOW_EMBEDDED must be 0 or 1')),
  REDIS_TIMEOUT_MS: milliseconds('REDIS_TIMEOUT_MS', '1000'),
  // Unset: 3 s for a database server, longer for embedded PGlite (see openDatabase).
  DATABASE_TIMEOUT_MS: v.optional(millisecondsText('DATABASE_TIMEOUT_MS')),
  SHUTDOWN_DRAIN_MS: milliseconds('SHUTDOWN_DRAIN_MS', '10000'),
  DEADLINE_LEASE_MS: milliseconds('DEADLINE_LEASE_MS', '10000'),
  CHAT_RATE_LIMIT: positiveCount('CHAT_RATE_LIMIT', DEFAULT_USER_RATE_LIMITS.chat),
  COMMUNITY_POSTS_PER_MINUTE: positiveCount('COMMUNITY_POSTS_PER_MINUTE', 6),
  COMMUNITY_QUEUE_FIRST_POSTS: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'COMMUNITY_QUEUE_FIRST_POSTS must be an integer from 0 to 9999'), v.transform(Number)),
    '0',
  ),
  COMMAND_RATE_LIMIT: positiveCount('COMMAND_RATE_LIMIT', DEFAULT_USER_RATE_LIMITS.command),
  CLIENT_LOG_RATE_LIMIT: positiveCount('CLIENT_LOG_RATE_LIMIT', 30),
  CLIENT_LOG_RETENTION_DAYS: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,3}$/, 'CLIENT_LOG_RETENTION_DAYS must be a whole number of days from 1 to 9999'), v.transform(Number)), '14'),
  METRICS_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, 'METRICS_TOKEN must be at least 16 characters'))),
  LOBBY_CREATE_RATE_LIMIT: positiveCount('LOBBY_CREATE_RATE_LIMIT', DEFAULT_USER_RATE_LIMITS.createsPerMinute),
  SOCKETS_PER_ADDRESS: positiveCount('SOCKETS_PER_ADDRESS', 200),
  SUBSCRIPTIONS_PER_SOCKET: positiveCount('SUBSCRIPTIONS_PER_SOCKET', 50),
  LOG_LEVEL: v.optional(
    v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'),
    'info',
  ),
  ...notifyEnvEntries,
});

type Env = v.InferOutput<typeof EnvSchema>;

export interface Config {
  nodeEnv: Env['NODE_ENV'];
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel, so several deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  dataDir: string;
  /** Undefined only in development before `resolveSessionSecret` fills it from DATA_DIR. */
  sessionSecret: string | undefined;
  pluginSecret: string | undefined;
  adminPlatformIds: ReadonlySet<string>;
  steam: { openIdUrl: string; apiUrl: string; apiKey: string | undefined };
  discord: { clientId: string; clientSecret: string; authorizeUrl: string; tokenUrl: string; apiUrl: string } | undefined;
  discordUrls: { authorizeUrl: string; tokenUrl: string; apiUrl: string };
  paypal: { clientId: string | undefined; clientSecret: string | undefined; apiUrl: string; webhookId: string | undefined; timeoutMs: number };
  /** Plan prices in minor units (cents) of `currency`. */
  premium: { prices: Record<'3m' | '6m' | '12m', number>; currency: string };
  /** How old a cup fee paid at PayPal but not yet entered must be before the sweep settles it (ms). */
  cups: { feeGraceMs: number };
  trustProxy: string[];
  /** Uploaded maps: an S3-compatible bucket when MAPS_S3_BUCKET is set, else files under DATA_DIR/maps. */
  mapStorage:
    | { kind: 'directory' }
    | { kind: 's3'; bucket: string; prefix: string; region: string; endpoint?: string; credentials?: { accessKeyId: string; secretAccessKey: string } };
  /** Where reserved game servers run: simulators on this host, or Hetzner Cloud. */
  servers: {
    provider: 'local' | 'hetzner';
    /** Servers a region runs at once, reservations of every tier together. */
    regionCapacity: number;
    hetzner: { apiUrl: string; token: string | undefined; image: string; serverType: string; gamePort: number };
  };
  /** Points per reported match (`played`, and `won` on top for a win) and the price of a custom avatar. */
  points: { earning: { played: number; won: number }; customAvatarCost: number };
  /** Never in production: demo players and an announcement would land in a real, empty database. */
  seedDemoData: boolean;
  /** `GET /auth/dev` logs in as any named local user (DEV_LOGIN=1; refused in production). */
  devLogin: boolean;
  logLevel: Env['LOG_LEVEL'];
  /** Per-user limits per 10 s (src/identity/user-action-limit.ts): chat messages, other lobby commands. */
  userRateLimits: { chat: number; command: number };
  /** The forum: new threads and replies per user per minute, and how many of a user's first posts wait for an admin. */
  community: { postsPerMinute: number; queueFirstPosts: number };
  /** Lobbies one user may create per minute, all instances together. */
  lobbyCreatesPerMinute: number;
  /** Open sockets from one client address on one instance (generous: many players share a NAT), and lobby rooms one socket may be in. */
  socketLimits: { perAddress: number; subscriptionsPerSocket: number };
  /** How long one live-store call may wait for Redis before it answers 503. */
  redisTimeoutMs: number;
  /** Bound on connecting to Postgres and on one statement; past it the request answers 503. Unset: 3 s (server), 30 s (embedded). */
  databaseTimeoutMs: number | undefined;
  /** How long a SIGTERM waits for requests in flight before answering the rest 503 and exiting. */
  shutdownDrainMs: number;
  /** How long a claimed deadline is its worker's before another instance may run it. */
  deadlineLeaseMs: number;
  /** Chat-platform notifications (src/notifications/notify-config.ts). */
  notify: NotifyConfig;
  /** Client logs (POST /api/logs/client): requests a minute per client address and per user; days rows are kept. */
  clientLogs: { ratePerMinute: number; retentionDays: number };
  /** Set: /metrics needs it as a Bearer token. Unset: /metrics answers loopback addresses only. */
  metricsToken: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Empty strings count as unset: `FOO= npm start` is how people unset things in a shell. */
function presentOnly(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.entries)) {
    const value = env[key];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = v.safeParse(EnvSchema, presentOnly(env));
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const variable = issue.path?.map((p) => String(p.key)).join('.') ?? 'environment';
    throw new ConfigError(variable, `invalid configuration: ${variable}: ${issue.message}`);
  }
  const e = parsed.output;
  const refusal = productionRefusal(e);
  if (refusal) throw new ConfigError(refusal.variable, `invalid configuration: ${refusal.variable}: ${refusal.rule}`);
  if (Boolean(e.DISCORD_CLIENT_ID) !== Boolean(e.DISCORD_CLIENT_SECRET)) {
    const missing = e.DISCORD_CLIENT_ID ? 'DISCORD_CLIENT_SECRET' : 'DISCORD_CLIENT_ID';
    throw new ConfigError(missing, `invalid configuration: ${missing}: set both DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET, or neither`);
  }
  if (Boolean(e.MAPS_S3_ACCESS_KEY_ID) !== Boolean(e.MAPS_S3_SECRET_ACCESS_KEY)) {
    const missing = e.MAPS_S3_ACCESS_KEY_ID ? 'MAPS_S3_SECRET_ACCESS_KEY' : 'MAPS_S3_ACCESS_KEY_ID';
    throw new ConfigError(missing, `invalid configuration: ${missing}: set both MAPS_S3_ACCESS_KEY_ID and MAPS_S3_SECRET_ACCESS_KEY, or neither`);
  }
  if (e.CLOUD_PROVIDER === 'hetzner' && !e.HETZNER_API_TOKEN) {
    throw new ConfigError('HETZNER_API_TOKEN', 'invalid configuration: HETZNER_API_TOKEN: required when CLOUD_PROVIDER=hetzner');
  }
  const discordUrls = { authorizeUrl: e.DISCORD_AUTHORIZE_URL, tokenUrl: e.DISCORD_TOKEN_URL, apiUrl: e.DISCORD_API_URL };
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL.replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    dataDir: e.DATA_DIR,
    sessionSecret: e.SESSION_SECRET,
    pluginSecret: e.PLUGIN_SECRET,
    adminPlatformIds: new Set(e.ADMIN_PLATFORM_IDS),
    steam: { openIdUrl: e.STEAM_OPENID_URL, apiUrl: e.STEAM_API_URL.replace(/\/+$/, ''), apiKey: e.STEAM_API_KEY },
    discord:
      e.DISCORD_CLIENT_ID && e.DISCORD_CLIENT_SECRET
        ? { clientId: e.DISCORD_CLIENT_ID, clientSecret: e.DISCORD_CLIENT_SECRET, ...discordUrls }
        : undefined,
    discordUrls,
    paypal: {
      clientId: e.PAYPAL_CLIENT_ID,
      clientSecret: e.PAYPAL_CLIENT_SECRET,
      apiUrl: e.PAYPAL_API_URL,
      webhookId: e.PAYPAL_WEBHOOK_ID,
      timeoutMs: e.PAYPAL_TIMEOUT_MS,
    },
    cups: { feeGraceMs: e.CUP_FEE_GRACE_SECONDS * 1000 },
    premium: {
      prices: { '3m': e.PREMIUM_PRICE_3M, '6m': e.PREMIUM_PRICE_6M, '12m': e.PREMIUM_PRICE_12M },
      currency: e.PREMIUM_CURRENCY,
    },
    trustProxy: e.TRUST_PROXY.split(',').map((s) => s.trim()).filter(Boolean),
    mapStorage: e.MAPS_S3_BUCKET
      ? {
          kind: 's3',
          bucket: e.MAPS_S3_BUCKET,
          prefix: e.MAPS_S3_PREFIX,
          region: e.MAPS_S3_REGION,
          ...(e.MAPS_S3_ENDPOINT ? { endpoint: e.MAPS_S3_ENDPOINT.replace(/\/+$/, '') } : {}),
          ...(e.MAPS_S3_ACCESS_KEY_ID && e.MAPS_S3_SECRET_ACCESS_KEY
            ? { credentials: { accessKeyId: e.MAPS_S3_ACCESS_KEY_ID, secretAccessKey: e.MAPS_S3_SECRET_ACCESS_KEY } }
            : {}),
        }
      : { kind: 'directory' },
    servers: {
      provider: e.CLOUD_PROVIDER,
      regionCapacity: e.SERVER_REGION_CAPACITY,
      hetzner: { apiUrl: e.HETZNER_API_URL.replace(/\/+$/, ''), token: e.HETZNER_API_TOKEN, image: e.HETZNER_IMAGE, serverType: e.HETZNER_SERVER_TYPE, gamePort: e.HETZNER_GAME_PORT },
    },
    points: { earning: { played: e.POINTS_MATCH_PLAYED, won: e.POINTS_MATCH_WON }, customAvatarCost: e.POINTS_CUSTOM_AVATAR_COST },
    seedDemoData: e.SEED_DEMO_DATA === 'auto' && e.NODE_ENV !== 'production',
    devLogin: e.DEV_LOGIN === '1',
    logLevel: e.LOG_LEVEL,
    userRateLimits: { chat: e.CHAT_RATE_LIMIT, command: e.COMMAND_RATE_LIMIT },
    community: { postsPerMinute: e.COMMUNITY_POSTS_PER_MINUTE, queueFirstPosts: e.COMMUNITY_QUEUE_FIRST_POSTS },
    lobbyCreatesPerMinute: e.LOBBY_CREATE_RATE_LIMIT,
    socketLimits: { perAddress: e.SOCKETS_PER_ADDRESS, subscriptionsPerSocket: e.SUBSCRIPTIONS_PER_SOCKET },
    redisTimeoutMs: e.REDIS_TIMEOUT_MS,
    databaseTimeoutMs: e.DATABASE_TIMEOUT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    deadlineLeaseMs: e.DEADLINE_LEASE_MS,
    notify: notifyConfig(e),
    clientLogs: { ratePerMinute: e.CLIENT_LOG_RATE_LIMIT, retentionDays: e.CLIENT_LOG_RETENTION_DAYS },
    metricsToken: e.METRICS_TOKEN,
  };
}
