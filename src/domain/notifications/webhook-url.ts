import { invalid, type DomainError } from '../domain-error';

export interface WebhookUrlParts {
  host: string;
  /** The last 4 characters: with the host, what a read shows of a secret URL. */
  last4: string;
}

/**
 * Checks an admin-typed webhook URL against the allowed origins (NOTIFY_WEBHOOK_ORIGINS). The
 * comparison is on the parsed origin, not a text prefix: `https://discord.com.example.net/...`
 * starts with `https://discord.com` but is another host. Credentials in the URL are refused too.
 * The message names the rule only: the URL is a secret and never goes into an error or a log.
 */
export function checkWebhookUrl(raw: string, allowedOrigins: readonly string[]): WebhookUrlParts | DomainError {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return invalid('url: must be a URL');
  }
  if (url.username || url.password) return invalid('url: must not carry credentials');
  if (!allowedOrigins.includes(url.origin)) return invalid(`url: must start with one of the allowed origins (${allowedOrigins.join(', ')})`);
  if (url.pathname === '/' || url.pathname === '') return invalid('url: must name a webhook path');
  return webhookUrlParts(raw);
}

export function webhookUrlParts(raw: string): WebhookUrlParts {
  return { host: new URL(raw).host, last4: Array.from(raw).slice(-4).join('') };
}
