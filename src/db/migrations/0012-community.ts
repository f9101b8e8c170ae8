import { Migration } from '@mikro-orm/migrations';

/**
 * The community forum: categories, threads, posts with their edit history, and reports. The
 * thread listing index serves a category page (pinned first, newest activity) and the
 * (thread_id, id) index a thread page; the GIN indexes serve full-text search over titles and
 * bodies (English configuration, the same expression the search query uses).
 */
export class CommunitySchema extends Migration {
  override up(): void {
    this.addSql(`create table "community_categories" ("id" serial primary key, "slug" varchar(64) not null, "name" varchar(64) not null, "description" varchar(500) not null default '', "position" int not null default 0, "admin_only_posting" boolean not null default false, "created_at" timestamptz not null default now())`);
    this.addSql(`alter table "community_categories" add constraint "community_categories_slug_unique" unique ("slug")`);
    this.addSql(`create table "community_threads" ("id" serial primary key, "category_id" int not null, "title" varchar(120) not null, "author_id" int not null, "pinned" boolean not null default false, "locked" boolean not null default false, "hidden" boolean not null default false, "pending" boolean not null default false, "post_count" int not null default 0, "created_at" timestamptz not null default now(), "last_post_at" timestamptz not null default now(), "deleted_at" timestamptz null)`);
    this.addSql(`create index "community_threads_author_id_index" on "community_threads" ("author_id")`);
    this.addSql(`create index "community_threads_listing_index" on "community_threads" ("category_id", "pinned", "last_post_at", "id")`);
    this.addSql(`create index "community_threads_title_search_index" on "community_threads" using gin (to_tsvector('english', "title"))`);
    this.addSql(`create table "community_posts" ("id" serial primary key, "thread_id" int not null, "author_id" int not null, "body" text not null, "body_html" text not null, "pending" boolean not null default false, "created_at" timestamptz not null default now(), "edited_at" timestamptz null, "deleted_at" timestamptz null)`);
    this.addSql(`create index "community_posts_thread_id_id_index" on "community_posts" ("thread_id", "id")`);
    this.addSql(`create index "community_posts_author_id_id_index" on "community_posts" ("author_id", "id")`);
    this.addSql(`create index "community_posts_body_search_index" on "community_posts" using gin (to_tsvector('english', "body"))`);
    this.addSql(`create table "community_reports" ("id" serial primary key, "post_id" int not null, "reporter_id" int not null, "reason" varchar(500) not null, "status" text not null default 'open', "created_at" timestamptz not null default now(), "resolved_by_id" int null, "resolved_at" timestamptz null, "resolution_reason" varchar(500) null)`);
    this.addSql(`create index "community_reports_status_id_index" on "community_reports" ("status", "id")`);
    this.addSql(`alter table "community_reports" add constraint "community_reports_post_id_reporter_id_unique" unique ("post_id", "reporter_id")`);
    this.addSql(`create table "community_post_edits" ("id" serial primary key, "post_id" int not null, "body" text not null, "edited_by_id" int not null, "edited_at" timestamptz not null default now())`);
    this.addSql(`create index "community_post_edits_post_id_index" on "community_post_edits" ("post_id")`);
    this.addSql(`alter table "community_threads" add constraint "community_threads_category_id_foreign" foreign key ("category_id") references "community_categories" ("id")`);
    this.addSql(`alter table "community_threads" add constraint "community_threads_author_id_foreign" foreign key ("author_id") references "users" ("id")`);
    this.addSql(`alter table "community_posts" add constraint "community_posts_thread_id_foreign" foreign key ("thread_id") references "community_threads" ("id")`);
    this.addSql(`alter table "community_posts" add constraint "community_posts_author_id_foreign" foreign key ("author_id") references "users" ("id")`);
    this.addSql(`alter table "community_reports" add constraint "community_reports_post_id_foreign" foreign key ("post_id") references "community_posts" ("id")`);
    this.addSql(`alter table "community_reports" add constraint "community_reports_reporter_id_foreign" foreign key ("reporter_id") references "users" ("id")`);
    this.addSql(`alter table "community_reports" add constraint "community_reports_resolved_by_id_foreign" foreign key ("resolved_by_id") references "users" ("id") on delete set null`);
    this.addSql(`alter table "community_reports" add constraint "community_reports_status_check" check ("status" in ('open', 'dismissed', 'post_deleted', 'author_banned'))`);
    this.addSql(`alter table "community_post_edits" add constraint "community_post_edits_post_id_foreign" foreign key ("post_id") references "community_posts" ("id")`);
    this.addSql(`alter table "community_post_edits" add constraint "community_post_edits_edited_by_id_foreign" foreign key ("edited_by_id") references "users" ("id")`);
  }

  override down(): void {
    for (const table of ['community_reports', 'community_post_edits', 'community_posts', 'community_threads', 'community_categories']) {
      this.addSql(`drop table if exists "${table}" cascade`);
    }
  }
}
