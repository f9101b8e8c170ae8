import type { EmSource } from './orm';

/** Used OpenID response nonces (by hash), in Postgres so a flushed Redis cannot make one usable again. */
export class OpenIdNonceRepository {
  constructor(private readonly db: EmSource) {}

  /** Records the nonce; false when it was recorded before and has not expired. Expired ones are swept on the way. */
  async claim(nonceHash: string, expiresAt: Date, now: Date): Promise<boolean> {
    const em = this.db.em();
    await em.execute(`delete from openid_nonces where expires_at < ?`, [now]);
    const rows = await em.execute<{ nonce_hash: string }[]>(
      `insert into openid_nonces (nonce_hash, expires_at) values (?, ?) on conflict (nonce_hash) do nothing returning nonce_hash`,
      [nonceHash, expiresAt],
    );
    return rows.length === 1;
  }
}
