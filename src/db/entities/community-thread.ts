import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CommunityCategory } from './community-category';
import { User } from './user';

/**
 * A thread. post_count and last_post_at are kept in step with its visible posts in the same
 * transaction as every post change, so a category page is one index scan. `pending` holds a
 * thread whose first post waits in the approvals queue; `deleted_at` is set when its first post is.
 */
export const CommunityThread = defineEntity({
  name: 'CommunityThread',
  tableName: 'community_threads',
  properties: {
    id: p.integer().primary(),
    category: () => p.manyToOne(CommunityCategory).mapToPk(),
    title: p.string().length(120),
    author: () => p.manyToOne(User).mapToPk().index('community_threads_author_id_index'),
    pinned: p.boolean().default(false),
    locked: p.boolean().default(false),
    hidden: p.boolean().default(false),
    pending: p.boolean().default(false),
    postCount: p.integer().default(0),
    createdAt: p.datetime().defaultRaw('now()'),
    lastPostAt: p.datetime().defaultRaw('now()'),
    deletedAt: p.datetime().nullable(),
  },
  indexes: [
    // A category page: pinned first, then newest activity (read backwards by the planner).
    { name: 'community_threads_listing_index', properties: ['category', 'pinned', 'lastPostAt', 'id'] },
    { name: 'community_threads_title_search_index', expression: `create index "community_threads_title_search_index" on "community_threads" using gin (to_tsvector('english', "title"))` },
  ],
});
export type CommunityThreadEntity = InferEntity<typeof CommunityThread>;
