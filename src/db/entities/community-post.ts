import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CommunityThread } from './community-thread';
import { User } from './user';

/** A post: the markdown as written and its sanitised HTML, rendered once on write. Deletes are soft. */
export const CommunityPost = defineEntity({
  name: 'CommunityPost',
  tableName: 'community_posts',
  properties: {
    id: p.integer().primary(),
    thread: () => p.manyToOne(CommunityThread).mapToPk(),
    author: () => p.manyToOne(User).mapToPk(),
    body: p.text(),
    bodyHtml: p.text(),
    pending: p.boolean().default(false),
    createdAt: p.datetime().defaultRaw('now()'),
    editedAt: p.datetime().nullable(),
    deletedAt: p.datetime().nullable(),
    /** When a queued post was approved (it showed then, not at its writing). */
    approvedAt: p.datetime().nullable(),
  },
  indexes: [
    { name: 'community_posts_thread_id_id_index', properties: ['thread', 'id'] },
    { name: 'community_posts_author_id_id_index', properties: ['author', 'id'] },
    { name: 'community_posts_body_search_index', expression: `create index "community_posts_body_search_index" on "community_posts" using gin (to_tsvector('english', "body"))` },
  ],
});
export type CommunityPostEntity = InferEntity<typeof CommunityPost>;
