import { Migration } from '@mikro-orm/migrations';

/** The admin area: rating corrections (the rating history's other half) and the audit's filter by actor. */
export class AdminSchema extends Migration {
  override up(): void {
    this.addSql(`create index "admin_audit_actor_id_index" on "admin_audit" ("actor_id")`);

    this.addSql(`create table "rating_adjustments" (
      "id" serial primary key,
      "user_id" int not null,
      "elo_before" int not null,
      "elo_after" int not null,
      "reason" text not null,
      "admin_id" int not null,
      "created_at" timestamptz not null default now(),
      constraint "rating_adjustments_user_id_foreign" foreign key ("user_id") references "users" ("id"),
      constraint "rating_adjustments_admin_id_foreign" foreign key ("admin_id") references "users" ("id")
    )`);
    this.addSql(`create index "rating_adjustments_user_id_index" on "rating_adjustments" ("user_id")`);
  }

  override down(): void {
    this.addSql('drop table if exists "rating_adjustments"');
    this.addSql('drop index if exists "admin_audit_actor_id_index"');
  }
}
