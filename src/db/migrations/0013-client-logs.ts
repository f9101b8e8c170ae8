import { Migration } from '@mikro-orm/migrations';

/**
 * Client logs: what the web client, the game plugin and bots report. Rows are only appended (one
 * multi-row insert per request) and deleted by age (retention, in small batches by the
 * received_at index), so the table needs no other index than that and the user's. The client
 * address is never stored, only its HMAC with a server secret.
 */
export class ClientLogsSchema extends Migration {
  override up(): void {
    this.addSql(`create table "client_logs" (
      "id" bigserial primary key,
      "level" varchar(8) not null,
      "source" varchar(8) null,
      "message" text not null,
      "context" jsonb null,
      "at" timestamptz not null,
      "received_at" timestamptz not null default now(),
      "user_id" int null,
      "address_hash" varchar(64) not null,
      "user_agent" varchar(512) null,
      constraint "client_logs_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null
    )`);
    this.addSql(`create index "client_logs_received_at_index" on "client_logs" ("received_at")`);
    this.addSql(`create index "client_logs_user_id_index" on "client_logs" ("user_id")`);
  }

  override down(): void {
    this.addSql('drop table if exists "client_logs"');
  }
}
