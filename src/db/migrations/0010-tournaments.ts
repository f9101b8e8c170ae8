import { Migration } from '@mikro-orm/migrations';

/**
 * Tournaments, their entries and their bracket matches.
 *
 * Every result write locks the tournament row (`select ... for update`) and bumps `version`, so
 * writes for one tournament are serialised across instances and realtime updates carry a strictly
 * increasing version. One live entry per (tournament, team) is a partial unique index (a withdrawn
 * entry stays as history and does not block entering again). `entry_fee` is the cups issue's seam:
 * null for every tournament this migration knows.
 */
export class TournamentsSchema extends Migration {
  override up(): void {
    this.addSql(`create table "tournaments" (
      "id" serial primary key,
      "name" varchar(64) not null,
      "format" text not null,
      "kind" text not null,
      "status" text not null default 'signups',
      "max_teams" int not null,
      "best_of" int not null default 1,
      "swiss_rounds" int null,
      "starts_at" timestamptz not null,
      "check_in_minutes" int not null default 0,
      "roster_locked" boolean not null default true,
      "entry_fee" jsonb null,
      "version" int not null default 1,
      "created_by_id" int null,
      "created_at" timestamptz not null default now(),
      "started_at" timestamptz null,
      "completed_at" timestamptz null,
      "cancelled_at" timestamptz null,
      constraint "tournaments_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null,
      constraint "tournaments_kind_check" check ("kind" in ('single_elimination', 'double_elimination', 'round_robin', 'swiss')),
      constraint "tournaments_status_check" check ("status" in ('signups', 'running', 'completed', 'cancelled')),
      constraint "tournaments_max_teams_check" check (max_teams >= 2 and max_teams <= 256),
      constraint "tournaments_best_of_check" check ("best_of" in (1, 3, 5)),
      constraint "tournaments_check_in_minutes_check" check ("check_in_minutes" >= 0)
    )`);
    this.addSql(`create index "tournaments_status_index" on "tournaments" ("status", "starts_at")`);

    this.addSql(`create table "tournament_entries" (
      "id" serial primary key,
      "tournament_id" int not null,
      "team_id" int not null,
      "status" text not null default 'entered',
      "seed" int null,
      "checked_in" boolean not null default false,
      "final_rank" int null,
      "entered_by_id" int null,
      "entered_at" timestamptz not null default now(),
      "left_at" timestamptz null,
      constraint "tournament_entries_tournament_id_foreign" foreign key ("tournament_id") references "tournaments" ("id") on delete cascade,
      constraint "tournament_entries_team_id_foreign" foreign key ("team_id") references "teams" ("id"),
      constraint "tournament_entries_entered_by_id_foreign" foreign key ("entered_by_id") references "users" ("id") on delete set null,
      constraint "tournament_entries_status_check" check ("status" in ('entered', 'withdrawn', 'dropped', 'eliminated', 'active'))
    )`);
    this.addSql(`create unique index "tournament_entries_live_unique" on "tournament_entries" ("tournament_id", "team_id") where "status" <> 'withdrawn'`);
    this.addSql(`create index "tournament_entries_team_id_index" on "tournament_entries" ("team_id")`);

    this.addSql(`create table "tournament_matches" (
      "id" serial primary key,
      "tournament_id" int not null,
      "key" varchar(16) not null,
      "position" int not null,
      "stage" text not null,
      "round" int not null,
      "number" int not null,
      "home_source" varchar(24) null,
      "away_source" varchar(24) null,
      "home_team_id" int null,
      "away_team_id" int null,
      "status" text not null,
      "flow" text not null default 'open',
      "home_score" int null,
      "away_score" int null,
      "forfeit" text null,
      "winner_team_id" int null,
      "reported_by_team_id" int null,
      "dispute_reason" varchar(500) null,
      "lobby_code" varchar(16) null,
      "updated_at" timestamptz not null default now(),
      constraint "tournament_matches_tournament_id_foreign" foreign key ("tournament_id") references "tournaments" ("id") on delete cascade,
      constraint "tournament_matches_key_unique" unique ("tournament_id", "key"),
      constraint "tournament_matches_status_check" check ("status" in ('locked', 'waiting', 'ready', 'reported', 'confirmed', 'disputed', 'bye')),
      constraint "tournament_matches_flow_check" check ("flow" in ('open', 'reported', 'disputed', 'confirmed')),
      constraint "tournament_matches_forfeit_check" check ("forfeit" in ('home', 'away', 'both'))
    )`);
    this.addSql(`create index "tournament_matches_tournament_id_index" on "tournament_matches" ("tournament_id", "position")`);
  }

  override down(): void {
    this.addSql('drop table if exists "tournament_matches"');
    this.addSql('drop table if exists "tournament_entries"');
    this.addSql('drop table if exists "tournaments"');
  }
}
