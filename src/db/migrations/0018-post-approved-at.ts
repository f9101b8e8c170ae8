import { Migration } from '@mikro-orm/migrations';

/**
 * When a queued post was approved: the moment it first showed, which its created_at (the
 * writing's) is not. A live feed that lost its messages reads again the posts changed since it
 * last heard from it, and an approval is such a change.
 */
export class PostApprovedAt extends Migration {
  override up(): void {
    this.addSql(`alter table "community_posts" add column "approved_at" timestamptz null`);
  }

  override down(): void {
    this.addSql(`alter table "community_posts" drop column "approved_at"`);
  }
}
