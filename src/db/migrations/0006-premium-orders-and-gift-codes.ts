import { Migration } from '@mikro-orm/migrations';

/**
 * Premium purchases: PayPal orders with their captures, gift codes, and the order a grant paid
 * for. `premium_grants.order_id` is unique, so an order can never grant twice whichever of the
 * capture route and the webhook completes it.
 */
export class PremiumOrdersAndGiftCodes extends Migration {
  override up(): void {
    this.addSql(`create table "premium_orders" (
      "id" varchar(36) not null primary key,
      "user_id" int not null,
      "kind" text not null,
      "plan" text not null,
      "quantity" int not null,
      "amount" varchar(16) not null,
      "currency" varchar(3) not null,
      "request_id" varchar(64) not null,
      "status" text not null,
      "created_at" timestamptz not null,
      "capture_id" varchar(36) null,
      "captured_amount" varchar(16) null,
      "captured_at" timestamptz null,
      "completed_via" text null,
      constraint "premium_orders_request_id_unique" unique ("request_id"),
      constraint "premium_orders_capture_id_unique" unique ("capture_id"),
      constraint "premium_orders_user_id_foreign" foreign key ("user_id") references "users" ("id"),
      constraint "premium_orders_kind_check" check ("kind" in ('premium', 'gift')),
      constraint "premium_orders_plan_check" check ("plan" in ('3m', '6m', '12m')),
      constraint "premium_orders_status_check" check ("status" in ('created', 'completed')),
      constraint "premium_orders_completed_via_check" check ("completed_via" in ('capture', 'webhook'))
    )`);
    this.addSql(`create index "premium_orders_user_id_index" on "premium_orders" ("user_id")`);

    this.addSql(`create table "gift_codes" (
      "code" varchar(19) not null primary key,
      "order_id" varchar(36) not null,
      "buyer_id" int not null,
      "plan" text not null,
      "status" text not null,
      "created_at" timestamptz not null,
      "expires_at" timestamptz not null,
      "redeemed_by_id" int null,
      "redeemed_at" timestamptz null,
      constraint "gift_codes_order_id_foreign" foreign key ("order_id") references "premium_orders" ("id"),
      constraint "gift_codes_buyer_id_foreign" foreign key ("buyer_id") references "users" ("id"),
      constraint "gift_codes_redeemed_by_id_foreign" foreign key ("redeemed_by_id") references "users" ("id") on delete set null,
      constraint "gift_codes_plan_check" check ("plan" in ('3m', '6m', '12m')),
      constraint "gift_codes_status_check" check ("status" in ('active', 'redeemed', 'revoked'))
    )`);
    this.addSql(`create index "gift_codes_order_id_index" on "gift_codes" ("order_id")`);
    this.addSql(`create index "gift_codes_buyer_id_index" on "gift_codes" ("buyer_id")`);
    this.addSql(`create index "gift_codes_redeemed_by_id_index" on "gift_codes" ("redeemed_by_id")`);

    this.addSql(`alter table "premium_grants" add "order_id" varchar(36) null`);
    this.addSql(
      `alter table "premium_grants" add constraint "premium_grants_order_id_foreign" foreign key ("order_id") references "premium_orders" ("id") on delete set null`,
    );
    this.addSql(`alter table "premium_grants" add constraint "premium_grants_order_id_unique" unique ("order_id")`);
  }

  override down(): void {
    this.addSql(`alter table "premium_grants" drop constraint "premium_grants_order_id_unique"`);
    this.addSql(`alter table "premium_grants" drop constraint "premium_grants_order_id_foreign"`);
    this.addSql(`alter table "premium_grants" drop column "order_id"`);
    this.addSql(`drop table "gift_codes"`);
    this.addSql(`drop table "premium_orders"`);
  }
}
