import * as v from 'valibot';
import { clampedQueryInt, IntegerParam, IsoDateTime } from './common';

const Reason = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(500, 'must be at most 500 characters'));
const Title = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'));
const Text = v.pipe(v.string(), v.maxLength(10_000, 'must be at most 10000 characters'));
const AnnouncementLevel = v.picklist(['info', 'warning', 'critical']);

export const IdParams = v.object({ id: IntegerParam });

const pageQuery = { limit: clampedQueryInt(50, 1, 200), page: clampedQueryInt(1, 1, 1_000_000) };
const OptionalIdQuery = v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'must be a positive integer'), v.transform(Number)));

export const BanCreateBody = v.object({
  user_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  reason: Reason,
  /** Absent or null: until lifted. */
  expires_at: v.nullish(IsoDateTime),
});
export type BanCreateBody = v.InferOutput<typeof BanCreateBody>;

export const BanLiftBody = v.object({ reason: v.optional(Reason) });

export const BanView = v.object({
  id: v.number(),
  user_id: v.number(),
  reason: v.string(),
  created_by: v.nullable(v.number()),
  created_at: IsoDateTime,
  expires_at: v.nullable(IsoDateTime),
  lifted_at: v.nullable(IsoDateTime),
  active: v.boolean(),
});
export type BanView = v.InferOutput<typeof BanView>;

export const BanListQuery = v.object({
  status: v.optional(v.picklist(['active', 'past', 'all']), 'all'),
  user_id: OptionalIdQuery,
  ...pageQuery,
});
export const BanPage = v.object({ bans: v.array(BanView), total: v.number(), page: v.number(), limit: v.number() });

export const EloOverrideBody = v.object({
  elo: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5000)),
  reason: Reason,
});
export const EloOverrideResult = v.object({ user_id: v.number(), elo_before: v.number(), elo_after: v.number() });

export const AnnouncementBody = v.object({
  title: Title,
  body: Text,
  level: v.optional(AnnouncementLevel, 'info'),
  /** Absent: from now. */
  starts_at: v.optional(IsoDateTime),
  /** Absent or null: until deleted. */
  ends_at: v.nullish(IsoDateTime),
});
export type AnnouncementBody = v.InferOutput<typeof AnnouncementBody>;
export const AnnouncementPatch = v.partial(v.object({ ...AnnouncementBody.entries, level: AnnouncementLevel }));
export type AnnouncementPatch = v.InferOutput<typeof AnnouncementPatch>;

export const AnnouncementView = v.object({
  id: v.number(),
  title: v.string(),
  body: v.string(),
  level: AnnouncementLevel,
  starts_at: IsoDateTime,
  ends_at: v.nullable(IsoDateTime),
  created_at: IsoDateTime,
});
export type AnnouncementView = v.InferOutput<typeof AnnouncementView>;

export const ChangelogBody = v.object({
  version: v.nullish(v.pipe(v.string(), v.trim(), v.maxLength(32, 'must be at most 32 characters'))),
  title: Title,
  body: Text,
});
export type ChangelogBody = v.InferOutput<typeof ChangelogBody>;
export const ChangelogPatch = v.partial(ChangelogBody);
export type ChangelogPatch = v.InferOutput<typeof ChangelogPatch>;

export const ForceEndBody = v.object({ reason: Reason });

export const AdminAuditEntry = v.object({
  id: v.number(),
  /** Null only when the admin's account was since removed. */
  actor_id: v.nullable(v.number()),
  action: v.string(),
  target_type: v.string(),
  target_id: v.string(),
  before: v.unknown(),
  after: v.unknown(),
  reason: v.nullable(v.string()),
  created_at: IsoDateTime,
});
export type AdminAuditEntry = v.InferOutput<typeof AdminAuditEntry>;

export const AuditQuery = v.object({
  actor_id: OptionalIdQuery,
  target_type: v.optional(v.pipe(v.string(), v.maxLength(32))),
  target_id: v.optional(v.pipe(v.string(), v.maxLength(64))),
  action: v.optional(v.pipe(v.string(), v.maxLength(64))),
  ...pageQuery,
});
export type AuditQuery = v.InferOutput<typeof AuditQuery>;
export const AuditPage = v.object({ entries: v.array(AdminAuditEntry), total: v.number(), page: v.number(), limit: v.number() });

export const RatingHistoryEntry = v.object({
  kind: v.picklist(['match', 'adjustment']),
  elo_before: v.number(),
  elo_after: v.number(),
  /** The match that moved the rating; null for an admin's correction. */
  match_id: v.nullable(v.number()),
  /** An admin's reason; null for a match. */
  reason: v.nullable(v.string()),
  at: IsoDateTime,
});
export type RatingHistoryEntry = v.InferOutput<typeof RatingHistoryEntry>;
