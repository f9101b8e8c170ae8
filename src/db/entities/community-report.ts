import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CommunityPost } from './community-post';
import { User } from './user';

/** A user's flag on a post, open until an admin resolves it; one per reporter and post. */
export const CommunityReport = defineEntity({
  name: 'CommunityReport',
  tableName: 'community_reports',
  properties: {
    id: p.integer().primary(),
    post: () => p.manyToOne(CommunityPost).mapToPk(),
    reporter: () => p.manyToOne(User).mapToPk(),
    reason: p.string().length(500),
    status: p.enum(['open', 'dismissed', 'post_deleted', 'author_banned'] as const).default('open'),
    createdAt: p.datetime().defaultRaw('now()'),
    resolvedBy: () => p.manyToOne(User).mapToPk().nullable(),
    resolvedAt: p.datetime().nullable(),
    resolutionReason: p.string().length(500).nullable(),
  },
  uniques: [{ name: 'community_reports_post_id_reporter_id_unique', properties: ['post', 'reporter'] }],
  indexes: [{ name: 'community_reports_status_id_index', properties: ['status', 'id'] }],
});
export type CommunityReportEntity = InferEntity<typeof CommunityReport>;
