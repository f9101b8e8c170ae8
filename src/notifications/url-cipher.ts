import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Webhook URLs are bearer secrets (whoever has one can post to the channel), so the table holds
 * them encrypted: AES-256-GCM under a key derived from the session secret, which every instance
 * shares already. A database dump or a logged row then reveals no URL. Changing SESSION_SECRET
 * makes stored URLs unreadable: those webhooks are disabled and must be registered again.
 */
export class UrlCipher {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'league-notifications', 'webhook-url', 32));
  }

  seal(url: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const sealed = Buffer.concat([cipher.update(url, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  /** The URL, or null when it was sealed under another key (or altered). */
  open(sealed: string): string | null {
    if (!sealed.startsWith('v1.')) return null;
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/** Tells whether DISCORD_WEBHOOK_URL changed since the last start without storing it in the clear. */
export function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}
