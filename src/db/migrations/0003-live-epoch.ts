import { Migration } from '@mikro-orm/migrations';

/**
 * What must outlive the loss of Redis's data: the live epoch (bumped each time the live store is
 * found emptied, and folded into every rebuilt lobby's version so versions never go backwards) and
 * the OpenID nonces already used (so a login assertion cannot be replayed after a flush).
 */
export class LiveEpochSchema extends Migration {
  override up(): void {
    this.addSql(`create sequence if not exists "live_epoch" start 1 minvalue 1`);
    this.addSql(`create table "openid_nonces" (
      "nonce_hash" varchar(64) not null primary key,
      "expires_at" timestamptz not null
    )`);
    this.addSql(`create index "openid_nonces_expires_at_index" on "openid_nonces" ("expires_at")`);
  }

  override down(): void {
    this.addSql(`drop table if exists "openid_nonces"`);
    this.addSql(`drop sequence if exists "live_epoch"`);
  }
}
