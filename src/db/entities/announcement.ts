import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A site-wide banner; the active one is the newest whose [starts_at, ends_at) window contains now. */
export const Announcement = defineEntity({
  name: 'Announcement',
  tableName: 'announcements',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(200),
    body: p.text(),
    level: p.enum(['info', 'warning', 'critical'] as const),
    startsAt: p.datetime(),
    endsAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export type AnnouncementEntity = InferEntity<typeof Announcement>;
