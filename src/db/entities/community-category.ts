import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A forum section; admins create, reorder and remove them (never while they hold threads). */
export const CommunityCategory = defineEntity({
  name: 'CommunityCategory',
  tableName: 'community_categories',
  properties: {
    id: p.integer().primary(),
    slug: p.string().length(64).unique('community_categories_slug_unique'),
    name: p.string().length(64),
    description: p.string().length(500).default(''),
    position: p.integer().default(0),
    adminOnlyPosting: p.boolean().default(false),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type CommunityCategoryEntity = InferEntity<typeof CommunityCategory>;
