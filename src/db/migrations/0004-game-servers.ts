import { Migration } from '@mikro-orm/migrations';

/**
 * Game server reservations: the reservation row (its `status` is a copy of the newest status
 * log row, written in the same transaction), the append-only status log, the audit of RCON
 * commands run through the site, and each server-backed lobby's match log state.
 */
export class GameServers extends Migration {
  override up(): void {
    this.addSql(`create table "server_reservations" (
      "id" serial primary key,
      "owner_id" int not null,
      "tier" varchar(16) not null,
      "status" varchar(16) not null,
      "region" varchar(32) not null,
      "map" varchar(64) not null,
      "config_preset" varchar(32) not null,
      "rcon_password" varchar(64) not null,
      "server_password" varchar(64) null,
      "starts_at" timestamptz not null,
      "ends_at" timestamptz not null,
      "created_at" timestamptz not null default now(),
      "ended_at" timestamptz null,
      "lobby_code" varchar(16) null,
      "connect_address" varchar(128) null,
      "rcon_address" varchar(128) null,
      "provider_ref" varchar(128) null,
      "provision_attempts" int not null default 0,
      "provisioning_since" timestamptz null,
      "last_players_at" timestamptz null,
      "warned_at" timestamptz null,
      constraint "server_reservations_owner_id_foreign" foreign key ("owner_id") references "users" ("id")
    )`);
    this.addSql(`create index "server_reservations_owner_id_status_index" on "server_reservations" ("owner_id", "status")`);
    this.addSql(`create index "server_reservations_region_status_index" on "server_reservations" ("region", "status")`);

    this.addSql(`create table "server_status_log" (
      "id" serial primary key,
      "reservation_id" int not null,
      "status" varchar(16) not null,
      "reason" text null,
      "at" timestamptz not null,
      constraint "server_status_log_reservation_id_foreign" foreign key ("reservation_id") references "server_reservations" ("id")
    )`);
    this.addSql(`create index "server_status_log_reservation_id_index" on "server_status_log" ("reservation_id")`);

    this.addSql(`create table "server_rcon_audit" (
      "id" serial primary key,
      "reservation_id" int not null,
      "lobby_code" varchar(16) null,
      "user_id" int not null,
      "command" text not null,
      "output" text null,
      "outcome" varchar(16) not null,
      "at" timestamptz not null,
      constraint "server_rcon_audit_reservation_id_foreign" foreign key ("reservation_id") references "server_reservations" ("id"),
      constraint "server_rcon_audit_user_id_foreign" foreign key ("user_id") references "users" ("id")
    )`);
    this.addSql(`create index "server_rcon_audit_reservation_id_index" on "server_rcon_audit" ("reservation_id")`);

    this.addSql(`create table "lobby_server_logs" (
      "lobby_code" varchar(16) not null primary key,
      "reservation_id" int not null,
      "status" varchar(16) not null,
      "log_url" text null,
      "demo_url" text null,
      "uploading_at" timestamptz null,
      "updated_at" timestamptz not null
    )`);
  }

  override down(): void {
    for (const table of ['lobby_server_logs', 'server_rcon_audit', 'server_status_log', 'server_reservations']) {
      this.addSql(`drop table if exists "${table}"`);
    }
  }
}
