import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CommunityPost } from './community-post';
import { User } from './user';

/** The text a post had before one edit, and when it was replaced (the post's history). */
export const CommunityPostEdit = defineEntity({
  name: 'CommunityPostEdit',
  tableName: 'community_post_edits',
  properties: {
    id: p.integer().primary(),
    post: () => p.manyToOne(CommunityPost).mapToPk().index('community_post_edits_post_id_index'),
    body: p.text(),
    editedBy: () => p.manyToOne(User).mapToPk(),
    editedAt: p.datetime().defaultRaw('now()'),
  },
});
export type CommunityPostEditEntity = InferEntity<typeof CommunityPostEdit>;
