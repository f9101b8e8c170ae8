import { Migration } from '@mikro-orm/migrations';

/** Community map uploads (src/db/entities/uploaded-map.ts). */
export class MapsSchema extends Migration {
  override up(): void {
    this.addSql(`create table "maps" (
      "id" serial primary key,
      "name" varchar(64) not null,
      "display_name" varchar(100) not null,
      "size_bytes" bigint null,
      "sha256" varchar(64) null,
      "uploader_id" int not null,
      "status" text not null,
      "rejection_reason" text null,
      "created_at" timestamptz not null default now(),
      "deleted_at" timestamptz null,
      "upload_ref" varchar(100) null,
      constraint "maps_status_check" check ("status" in ('processing', 'active', 'rejected')),
      constraint "maps_uploader_id_foreign" foreign key ("uploader_id") references "users" ("id")
    )`);
    this.addSql(`create unique index "maps_live_name_unique" on "maps" ("name") where "status" in ('processing', 'active') and "deleted_at" is null`);
    this.addSql(`create unique index "maps_active_sha256_unique" on "maps" ("sha256") where "status" = 'active' and "deleted_at" is null`);
  }

  override down(): void {
    this.addSql(`drop table if exists "maps"`);
  }
}
