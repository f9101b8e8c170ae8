import { Migration } from '@mikro-orm/migrations';

/**
 * Teams (lasting clubs with a roster kept as membership intervals), their invites, and the one
 * approvals table every kind of admin approval shares (team transfers now, forum posts later).
 *
 * Names and tags are unique ignoring case among teams not disbanded: a partial unique index on the
 * lowered value, so two concurrent creates cannot both win whatever the code does. A disbanded
 * team keeps its row and its history and frees its name.
 * One open membership per (team, user) and one pending invite per (team, user) are indexes too.
 * `approvals.kind` is free text (no CHECK) so a new kind is one file, not a migration; a pending
 * approval's `subject_key` names the change it would make, so the same change is requested once.
 */
export class TeamsAndApprovals extends Migration {
  override up(): void {
    this.addSql(`create table "teams" (
      "id" serial primary key,
      "name" varchar(32) not null,
      "tag" varchar(6) not null,
      "description" varchar(1000) not null default '',
      "leader_id" int not null,
      "version" int not null default 1,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "disbanded_at" timestamptz null,
      constraint "teams_leader_id_foreign" foreign key ("leader_id") references "users" ("id"),
      constraint "teams_version_check" check (version >= 1)
    )`);
    this.addSql(`create unique index "teams_name_lower_unique" on "teams" (lower("name")) where "disbanded_at" is null`);
    this.addSql(`create unique index "teams_tag_lower_unique" on "teams" (lower("tag")) where "disbanded_at" is null`);
    this.addSql(`create index "teams_created_at_index" on "teams" ("created_at")`);

    this.addSql(`create table "team_memberships" (
      "id" serial primary key,
      "team_id" int not null,
      "user_id" int not null,
      "role" text not null,
      "joined_at" timestamptz not null default now(),
      "left_at" timestamptz null,
      "left_reason" text null,
      constraint "team_memberships_team_id_foreign" foreign key ("team_id") references "teams" ("id"),
      constraint "team_memberships_user_id_foreign" foreign key ("user_id") references "users" ("id"),
      constraint "team_memberships_role_check" check ("role" in ('leader', 'captain', 'member')),
      constraint "team_memberships_left_reason_check" check ("left_reason" in ('left', 'kicked', 'disbanded')),
      constraint "team_memberships_interval_check" check (("left_at" is null) = ("left_reason" is null) and ("left_at" is null or "left_at" >= "joined_at"))
    )`);
    this.addSql(`create unique index "team_memberships_open_unique" on "team_memberships" ("team_id", "user_id") where "left_at" is null`);
    this.addSql(`create index "team_memberships_team_id_index" on "team_memberships" ("team_id", "joined_at")`);
    this.addSql(`create index "team_memberships_open_user_index" on "team_memberships" ("user_id") where "left_at" is null`);

    this.addSql(`create table "team_invites" (
      "id" serial primary key,
      "team_id" int not null,
      "user_id" int not null,
      "from_user_id" int not null,
      "status" text not null default 'pending',
      "created_at" timestamptz not null default now(),
      "decided_at" timestamptz null,
      constraint "team_invites_team_id_foreign" foreign key ("team_id") references "teams" ("id"),
      constraint "team_invites_user_id_foreign" foreign key ("user_id") references "users" ("id"),
      constraint "team_invites_from_user_id_foreign" foreign key ("from_user_id") references "users" ("id"),
      constraint "team_invites_status_check" check ("status" in ('pending', 'accepted', 'declined', 'cancelled'))
    )`);
    this.addSql(`create unique index "team_invites_pending_unique" on "team_invites" ("team_id", "user_id") where "status" = 'pending'`);
    this.addSql(`create index "team_invites_user_id_index" on "team_invites" ("user_id") where "status" = 'pending'`);

    this.addSql(`create table "approvals" (
      "id" serial primary key,
      "kind" varchar(32) not null,
      "status" text not null default 'pending',
      "subject" jsonb not null,
      "subject_key" varchar(128) null,
      "requested_by_id" int null,
      "created_at" timestamptz not null default now(),
      "decided_by_id" int null,
      "decided_at" timestamptz null,
      "reason" text null,
      constraint "approvals_requested_by_id_foreign" foreign key ("requested_by_id") references "users" ("id") on delete set null,
      constraint "approvals_decided_by_id_foreign" foreign key ("decided_by_id") references "users" ("id") on delete set null,
      constraint "approvals_status_check" check ("status" in ('pending', 'approved', 'denied')),
      constraint "approvals_decided_check" check (("status" = 'pending') = ("decided_at" is null))
    )`);
    this.addSql(`create unique index "approvals_pending_subject_key_unique" on "approvals" ("kind", "subject_key") where "status" = 'pending' and "subject_key" is not null`);
    this.addSql(`create index "approvals_status_kind_id_index" on "approvals" ("status", "kind", "id")`);
    this.addSql(`create index "approvals_requested_by_id_index" on "approvals" ("requested_by_id", "id")`);
  }

  override down(): void {
    for (const table of ['approvals', 'team_invites', 'team_memberships', 'teams']) {
      this.addSql(`drop table if exists "${table}"`);
    }
  }
}
