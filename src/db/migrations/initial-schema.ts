import { Migration } from '@mikro-orm/migrations';

/**
 * The first schema. Written by hand and kept equal to the entities: the migration test fails when
 * the schema generator finds any difference after migrating.
 */
export class InitialSchema extends Migration {
  override up(): void {
    this.addSql(`create table "users" (
      "id" serial primary key,
      "platform_id" varchar(32) not null,
      "username" varchar(64) not null,
      "avatar_url" text null,
      "elo" int not null default 1000,
      "matches_played" int not null default 0,
      "wins" int not null default 0,
      "losses" int not null default 0,
      "is_admin" boolean not null default false,
      "chat_account_id" varchar(64) null,
      "chat_username" varchar(64) null,
      "custom_avatar_url" text null,
      "name_color" varchar(32) null,
      "profile_frame" varchar(64) null,
      "created_at" timestamptz not null default now(),
      "last_login_at" timestamptz null,
      "last_seen_at" timestamptz null,
      constraint "users_platform_id_unique" unique ("platform_id"),
      constraint "users_chat_account_id_unique" unique ("chat_account_id")
    )`);

    this.addSql(`create table "matches" (
      "id" serial primary key,
      "lobby_code" varchar(16) not null,
      "format" varchar(16) not null,
      "map" varchar(64) null,
      "score_red" int not null,
      "score_blu" int not null,
      "winner" text not null,
      "duration_seconds" int not null,
      "started_at" timestamptz not null,
      "ended_at" timestamptz not null,
      "created_at" timestamptz not null default now(),
      constraint "matches_lobby_code_unique" unique ("lobby_code"),
      constraint "matches_winner_check" check ("winner" in ('red', 'blu', 'draw'))
    )`);
    this.addSql(`create index "matches_ended_at_index" on "matches" ("ended_at")`);

    this.addSql(`create table "match_players" (
      "id" serial primary key,
      "match_id" int not null,
      "user_id" int not null,
      "team" text not null,
      "class" varchar(16) not null,
      "elo_before" int not null,
      "elo_after" int not null,
      "won" boolean null,
      constraint "match_players_match_id_user_id_unique" unique ("match_id", "user_id"),
      constraint "match_players_team_check" check ("team" in ('red', 'blu')),
      constraint "match_players_match_id_foreign" foreign key ("match_id") references "matches" ("id") on delete cascade,
      constraint "match_players_user_id_foreign" foreign key ("user_id") references "users" ("id")
    )`);
    this.addSql(`create index "match_players_user_id_index" on "match_players" ("user_id")`);

    this.addSql(`create table "changelog_entries" (
      "id" serial primary key,
      "version" varchar(32) null,
      "title" varchar(200) not null,
      "body" text not null,
      "created_at" timestamptz not null default now()
    )`);

    this.addSql(`create table "announcements" (
      "id" serial primary key,
      "title" varchar(200) not null,
      "body" text not null,
      "level" text not null,
      "starts_at" timestamptz not null,
      "ends_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      constraint "announcements_level_check" check ("level" in ('info', 'warning', 'critical'))
    )`);

    this.addSql(`create table "api_keys" (
      "id" serial primary key,
      "user_id" int not null,
      "kind" text not null,
      "label" varchar(100) null,
      "key_hash" varchar(64) not null,
      "key_prefix" varchar(12) not null,
      "created_at" timestamptz not null default now(),
      "last_used_at" timestamptz null,
      "revoked_at" timestamptz null,
      constraint "api_keys_key_hash_unique" unique ("key_hash"),
      constraint "api_keys_kind_check" check ("kind" in ('premium', 'admin')),
      constraint "api_keys_user_id_foreign" foreign key ("user_id") references "users" ("id")
    )`);
    this.addSql(`create index "api_keys_user_id_index" on "api_keys" ("user_id")`);

    this.addSql(`create table "api_key_audit" (
      "id" serial primary key,
      "key_id" int not null,
      "endpoint" varchar(255) not null,
      "method" varchar(10) not null,
      "client_hash" varchar(64) not null,
      "status" int not null,
      "created_at" timestamptz not null default now(),
      constraint "api_key_audit_key_id_foreign" foreign key ("key_id") references "api_keys" ("id") on delete cascade
    )`);
    this.addSql(`create index "api_key_audit_key_id_id_index" on "api_key_audit" ("key_id", "id")`);

    this.addSql(`create table "premium_grants" (
      "id" serial primary key,
      "user_id" int not null,
      "plan" text not null,
      "source" varchar(64) not null,
      "granted_at" timestamptz not null,
      "expires_at" timestamptz not null,
      constraint "premium_grants_plan_check" check ("plan" in ('3m', '6m', '12m')),
      constraint "premium_grants_user_id_foreign" foreign key ("user_id") references "users" ("id")
    )`);
    this.addSql(`create index "premium_grants_user_id_expires_at_index" on "premium_grants" ("user_id", "expires_at")`);

    this.addSql(`create table "bans" (
      "id" serial primary key,
      "user_id" int not null,
      "reason" text not null,
      "created_by_id" int null,
      "created_at" timestamptz not null default now(),
      "expires_at" timestamptz null,
      "lifted_at" timestamptz null,
      constraint "bans_user_id_foreign" foreign key ("user_id") references "users" ("id"),
      constraint "bans_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null
    )`);
    this.addSql(`create index "bans_user_id_index" on "bans" ("user_id")`);

    this.addSql(`create table "lobby_records" (
      "code" varchar(16) not null primary key,
      "phase" varchar(16) not null,
      "host_id" int not null,
      "snapshot" jsonb not null,
      "version" int not null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "lobby_records_phase_index" on "lobby_records" ("phase")`);
  }

  override down(): void {
    for (const table of [
      'lobby_records',
      'bans',
      'premium_grants',
      'api_key_audit',
      'api_keys',
      'announcements',
      'changelog_entries',
      'match_players',
      'matches',
      'users',
    ]) {
      this.addSql(`drop table if exists "${table}"`);
    }
  }
}
