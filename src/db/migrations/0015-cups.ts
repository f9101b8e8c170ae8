import { Migration } from '@mikro-orm/migrations';

/**
 * Cups: tournaments with an entry fee, its payments, refunds and payouts.
 *
 * Every fee is a row of `cup_entry_fees`, written in the entry's transaction under the tournament's
 * row lock: points fees as `paid` together with their ledger row, money fees as `pending_payment`
 * with their PayPal order (unique), then `captured` and `paid` once the entry holds. One paid fee per
 * (cup, team) is a partial unique index. A money refund is a row of `cup_refunds`, one per fee
 * (unique), created with its PayPal-Request-Id in the withdrawal's or cancellation's transaction;
 * the worker then sends it, retried until PayPal refunds, so a refund is never issued twice nor lost.
 * Payouts are unique per (cup, rank): computing them again pays nothing twice.
 */
export class CupsSchema extends Migration {
  override up(): void {
    this.addSql(`alter table "tournaments" add column "prizes" jsonb null, add column "house_percent" int null`);
    this.addSql(`alter table "point_transactions" drop constraint "point_transactions_kind_check"`);
    this.addSql(`alter table "point_transactions" add constraint "point_transactions_kind_check"
      check ("kind" in ('match', 'redeem', 'custom_avatar', 'admin_award', 'cup_entry', 'cup_refund', 'cup_prize'))`);

    this.addSql(`create table "cup_entry_fees" (
      "id" serial primary key,
      "tournament_id" int not null,
      "team_id" int not null,
      "payer_id" int not null,
      "currency" text not null,
      "amount" int not null,
      "status" text not null,
      "order_id" varchar(64) null,
      "capture_id" varchar(64) null,
      "created_at" timestamptz not null default now(),
      "paid_at" timestamptz null,
      "refunded_at" timestamptz null,
      constraint "cup_entry_fees_tournament_id_foreign" foreign key ("tournament_id") references "tournaments" ("id") on delete cascade,
      constraint "cup_entry_fees_team_id_foreign" foreign key ("team_id") references "teams" ("id"),
      constraint "cup_entry_fees_payer_id_foreign" foreign key ("payer_id") references "users" ("id"),
      constraint "cup_entry_fees_order_id_unique" unique ("order_id"),
      constraint "cup_entry_fees_status_check" check ("status" in ('pending_payment', 'captured', 'paid', 'refunded'))
    )`);
    this.addSql(`create unique index "cup_entry_fees_paid_unique" on "cup_entry_fees" ("tournament_id", "team_id") where "status" = 'paid'`);

    this.addSql(`create table "cup_refunds" (
      "id" serial primary key,
      "fee_id" int not null,
      "tournament_id" int not null,
      "capture_id" varchar(64) not null,
      "amount" int not null,
      "currency" text not null,
      "status" text not null default 'pending',
      "request_id" varchar(64) not null,
      "paypal_refund_id" varchar(64) null,
      "paypal_status" text null,
      "attempts" int not null default 0,
      "last_error" text null,
      "next_attempt_at" timestamptz not null default now(),
      "claimed_until" timestamptz null,
      "created_at" timestamptz not null default now(),
      "refunded_at" timestamptz null,
      constraint "cup_refunds_fee_id_foreign" foreign key ("fee_id") references "cup_entry_fees" ("id") on delete cascade,
      constraint "cup_refunds_tournament_id_foreign" foreign key ("tournament_id") references "tournaments" ("id") on delete cascade,
      constraint "cup_refunds_fee_id_unique" unique ("fee_id"),
      constraint "cup_refunds_status_check" check ("status" in ('pending', 'failed', 'refunded'))
    )`);
    this.addSql(`create index "cup_refunds_due_index" on "cup_refunds" ("status", "next_attempt_at")`);

    this.addSql(`create table "cup_payouts" (
      "id" serial primary key,
      "tournament_id" int not null,
      "rank" int not null,
      "team_id" int not null,
      "amount" int not null,
      "currency" text not null,
      "status" text not null,
      "reference" varchar(200) null,
      "paid_by_id" int null,
      "paid_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      constraint "cup_payouts_tournament_id_foreign" foreign key ("tournament_id") references "tournaments" ("id") on delete cascade,
      constraint "cup_payouts_team_id_foreign" foreign key ("team_id") references "teams" ("id"),
      constraint "cup_payouts_paid_by_id_foreign" foreign key ("paid_by_id") references "users" ("id") on delete set null,
      constraint "cup_payouts_rank_unique" unique ("tournament_id", "rank"),
      constraint "cup_payouts_status_check" check ("status" in ('pending', 'paid'))
    )`);
  }

  override down(): void {
    for (const table of ['cup_payouts', 'cup_refunds', 'cup_entry_fees']) this.addSql(`drop table if exists "${table}"`);
    this.addSql(`delete from "point_transactions" where "kind" in ('cup_entry', 'cup_refund', 'cup_prize')`);
    this.addSql(`alter table "point_transactions" drop constraint "point_transactions_kind_check"`);
    this.addSql(`alter table "point_transactions" add constraint "point_transactions_kind_check" check ("kind" in ('match', 'redeem', 'custom_avatar', 'admin_award'))`);
    this.addSql(`alter table "tournaments" drop column "prizes", drop column "house_percent"`);
  }
}
