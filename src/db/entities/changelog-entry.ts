import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const ChangelogEntry = defineEntity({
  name: 'ChangelogEntry',
  tableName: 'changelog_entries',
  properties: {
    id: p.integer().primary(),
    version: p.string().length(32).nullable(),
    title: p.string().length(200),
    body: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type ChangelogEntryEntity = InferEntity<typeof ChangelogEntry>;
