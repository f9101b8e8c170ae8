import { Migration } from '@mikro-orm/migrations';

/**
 * Points: the ledger, the balance row it keeps in step, the reward catalogue, redemptions, and the
 * admin audit table (named for every admin action, which the admin area reuses).
 *
 * The balance row exists so that a spend is one conditional update of one locked row; its CHECKs
 * (and the ledger's on balance_after) make a negative balance impossible whatever the code does.
 * The catalogue rows are inserted here, not by the demo seed: the rewards are product data that
 * must exist on every deployment, and a migration runs exactly once per database under the
 * migration lock, where a start-up seed would race between instances.
 */
export class PointsSchema extends Migration {
  override up(): void {
    this.addSql(`create table "point_balances" (
      "user_id" int not null primary key,
      "balance" int not null default 0,
      "lifetime_earned" int not null default 0,
      "lifetime_spent" int not null default 0,
      "updated_at" timestamptz not null default now(),
      constraint "point_balances_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade,
      constraint "point_balances_balance_check" check (balance >= 0),
      constraint "point_balances_lifetime_check" check (lifetime_earned >= 0 and lifetime_spent >= 0 and balance = lifetime_earned - lifetime_spent)
    )`);
    this.addSql(`create index "point_balances_balance_index" on "point_balances" ("balance")`);

    this.addSql(`create table "point_rewards" (
      "id" serial primary key,
      "name" varchar(64) not null,
      "kind" text not null,
      "cost" int not null,
      "value" varchar(64) not null,
      "active" boolean not null default true,
      "created_at" timestamptz not null default now(),
      constraint "point_rewards_kind_value_unique" unique ("kind", "value"),
      constraint "point_rewards_kind_check" check ("kind" in ('name_color', 'profile_frame')),
      constraint "point_rewards_cost_check" check (cost > 0)
    )`);

    this.addSql(`create table "point_redemptions" (
      "id" serial primary key,
      "user_id" int not null,
      "reward_id" int not null,
      "cost" int not null,
      "created_at" timestamptz not null default now(),
      constraint "point_redemptions_user_id_reward_id_unique" unique ("user_id", "reward_id"),
      constraint "point_redemptions_user_id_foreign" foreign key ("user_id") references "users" ("id"),
      constraint "point_redemptions_reward_id_foreign" foreign key ("reward_id") references "point_rewards" ("id")
    )`);

    this.addSql(`create table "point_transactions" (
      "id" serial primary key,
      "user_id" int not null,
      "amount" int not null,
      "kind" text not null,
      "reason" varchar(200) not null,
      "balance_after" int not null,
      "actor_id" int null,
      "source_key" varchar(100) not null,
      "created_at" timestamptz not null default now(),
      constraint "point_transactions_source_key_unique" unique ("source_key"),
      constraint "point_transactions_kind_check" check ("kind" in ('match', 'redeem', 'custom_avatar', 'admin_award')),
      constraint "point_transactions_user_id_foreign" foreign key ("user_id") references "users" ("id"),
      constraint "point_transactions_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on delete set null,
      constraint "point_transactions_amount_check" check (amount <> 0),
      constraint "point_transactions_balance_after_check" check (balance_after >= 0)
    )`);
    this.addSql(`create index "point_transactions_user_id_id_index" on "point_transactions" ("user_id", "id")`);

    this.addSql(`create table "admin_audit" (
      "id" serial primary key,
      "actor_id" int null,
      "action" varchar(64) not null,
      "target_type" varchar(32) not null,
      "target_id" varchar(64) not null,
      "before" jsonb null,
      "after" jsonb null,
      "reason" text null,
      "created_at" timestamptz not null default now(),
      constraint "admin_audit_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on delete set null
    )`);
    this.addSql(`create index "admin_audit_target_type_target_id_index" on "admin_audit" ("target_type", "target_id")`);
    this.addSql(`create index "admin_audit_created_at_index" on "admin_audit" ("created_at")`);

    this.addSql(`insert into "point_rewards" ("name", "kind", "cost", "value", "active") values
      ('Crimson name', 'name_color', 300, '#dc143c', true),
      ('Azure name', 'name_color', 300, '#1e90ff', true),
      ('Emerald name', 'name_color', 300, '#2ecc71', true),
      ('Gold name', 'name_color', 750, '#ffd700', true),
      ('Bronze frame', 'profile_frame', 400, 'bronze', true),
      ('Silver frame', 'profile_frame', 900, 'silver', true),
      ('Gold frame', 'profile_frame', 1500, 'gold', true),
      ('Pumpkin frame (retired)', 'profile_frame', 500, 'pumpkin', false)`);
  }

  override down(): void {
    for (const table of ['admin_audit', 'point_transactions', 'point_redemptions', 'point_rewards', 'point_balances']) {
      this.addSql(`drop table if exists "${table}"`);
    }
  }
}
