import * as v from 'valibot';

/** The environment variables of the notifications area, parsed with the rest in config.ts. */
export const notifyEnvEntries = {
  NOTIFY_WEBHOOK_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.split(',').map((o) => o.trim()).filter((o) => o.length > 0)),
      v.check((list) => list.length > 0 && list.every(isOrigin), 'NOTIFY_WEBHOOK_ORIGINS must be a comma-separated list of origins such as https://discord.com'),
    ),
    'https://discord.com,https://discordapp.com',
  ),
  DISCORD_WEBHOOK_URL: v.optional(v.pipe(v.string(), v.trim(), v.url('DISCORD_WEBHOOK_URL must be a URL'))),
  NOTIFY_POLL_MS: v.optional(msText('NOTIFY_POLL_MS'), '1000'),
  NOTIFY_LEASE_MS: v.optional(msText('NOTIFY_LEASE_MS'), '30000'),
  NOTIFY_TIMEOUT_MS: v.optional(msText('NOTIFY_TIMEOUT_MS'), '10000'),
  NOTIFY_RETRY_BASE_MS: v.optional(msText('NOTIFY_RETRY_BASE_MS'), '1000'),
  NOTIFY_RETRY_MAX_MS: v.optional(msText('NOTIFY_RETRY_MAX_MS'), '600000'),
};

function msText(name: string) {
  return v.pipe(v.string(), v.regex(/^\d{2,7}$/, `${name} must be a whole number of milliseconds (10 or more)`), v.transform(Number));
}

function isOrigin(text: string): boolean {
  try {
    return new URL(text).origin === text;
  } catch {
    return false;
  }
}

export interface NotifyConfig {
  /** Origins a registered webhook URL must have (exactly, scheme and host and port). */
  webhookOrigins: string[];
  /** One more webhook, receiving every event, configured only here. */
  discordWebhookUrl: string | undefined;
  /** How often an idle worker looks for due deliveries. */
  pollMs: number;
  /** How long a webhook is one instance's to send to before another may take it over. */
  leaseMs: number;
  /** Bound on one execute-webhook call. */
  timeoutMs: number;
  /** The first retry's back-off after a 5xx or network error. */
  retryBaseMs: number;
  /** The longest back-off: the doubling stops there. */
  retryMaxMs: number;
}

type NotifyEnv = v.InferOutput<v.ObjectSchema<typeof notifyEnvEntries, undefined>>;

export function notifyConfig(e: NotifyEnv): NotifyConfig {
  return {
    webhookOrigins: e.NOTIFY_WEBHOOK_ORIGINS,
    discordWebhookUrl: e.DISCORD_WEBHOOK_URL,
    pollMs: e.NOTIFY_POLL_MS,
    leaseMs: e.NOTIFY_LEASE_MS,
    timeoutMs: e.NOTIFY_TIMEOUT_MS,
    retryBaseMs: e.NOTIFY_RETRY_BASE_MS,
    retryMaxMs: e.NOTIFY_RETRY_MAX_MS,
  };
}
