import { Migration } from '@mikro-orm/migrations';

/**
 * When the stuck-fee sweep next looks at an unsettled money fee (`pending_payment` or `captured`
 * past the grace): a fee paid at PayPal whose entry was never made (a crash between the capture
 * and the entry, the webhook off) is entered or refunded, never left. Each look moves the next
 * one further out, so abandoned orders cost PayPal a few reads, not one a second.
 */
export class CupFeeChecks extends Migration {
  override up(): void {
    this.addSql(`alter table "cup_entry_fees" add column "checks" int not null default 0, add column "next_check_at" timestamptz null`);
    this.addSql(`create index "cup_entry_fees_unsettled_index" on "cup_entry_fees" ("created_at") where "status" in ('pending_payment', 'captured')`);
  }

  override down(): void {
    this.addSql(`drop index if exists "cup_entry_fees_unsettled_index"`);
    this.addSql(`alter table "cup_entry_fees" drop column "checks", drop column "next_check_at"`);
  }
}
