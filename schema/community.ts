import * as v from 'valibot';
import { IntegerParam, IsoDateTime } from './common';
import { PageQuery } from './paging';
import { UserPublic } from './user';

/**
 * The forum's wire records and bodies (docs/design/CONTRACT.md "Community"). Text a user writes is
 * checked (length without surrounding blanks) but kept as written.
 */
const writtenText = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.check((s) => s.trim().length >= min, `must be at least ${min} characters besides blanks`),
    v.maxLength(max, `must be at most ${max} characters`),
  );

export const CommunityPageQuery = v.object({ ...PageQuery });
export const CommunitySearchQuery = v.object({
  q: v.pipe(v.string('q is required'), v.check((s) => s.trim().length >= 2, 'q must be at least 2 characters'), v.maxLength(200, 'q must be at most 200 characters')),
  ...CommunityPageQuery.entries,
});

export const CommunityIdParams = v.object({ id: IntegerParam });
export const CategorySlugParams = v.object({ slug: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/, 'must be a category slug')) });

const Slug = v.pipe(v.string(), v.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'slug must be lower-case letters and digits joined by single hyphens'), v.maxLength(64, 'slug must be at most 64 characters'));
const Position = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000));

export const Category = v.object({
  id: v.number(),
  slug: v.string(),
  name: v.string(),
  description: v.string(),
  position: v.number(),
  admin_only_posting: v.boolean(),
  thread_count: v.number(),
});
export type Category = v.InferOutput<typeof Category>;

export const CategoryCreateBody = v.object({
  slug: Slug,
  name: writtenText(1, 64),
  description: v.optional(v.pipe(v.string(), v.maxLength(500, 'description must be at most 500 characters')), ''),
  position: v.optional(Position, 0),
  admin_only_posting: v.optional(v.boolean(), false),
});
export type CategoryCreateBody = v.InferOutput<typeof CategoryCreateBody>;

export const CategoryPatchBody = v.object({
  slug: v.optional(Slug),
  name: v.optional(writtenText(1, 64)),
  description: v.optional(v.pipe(v.string(), v.maxLength(500, 'description must be at most 500 characters'))),
  position: v.optional(Position),
  admin_only_posting: v.optional(v.boolean()),
});
export type CategoryPatchBody = v.InferOutput<typeof CategoryPatchBody>;

export const ThreadSummary = v.object({
  id: v.number(),
  category_id: v.number(),
  title: v.string(),
  author: UserPublic,
  pinned: v.boolean(),
  locked: v.boolean(),
  hidden: v.boolean(),
  post_count: v.number(),
  created_at: IsoDateTime,
  last_post_at: IsoDateTime,
});
export type ThreadSummary = v.InferOutput<typeof ThreadSummary>;

export const Post = v.object({
  id: v.number(),
  thread_id: v.number(),
  author: UserPublic,
  /** The markdown as written; "" once deleted. */
  body: v.string(),
  /** Rendered and sanitised on write (src/community/render-markdown.ts); "" once deleted. */
  body_html: v.string(),
  created_at: IsoDateTime,
  edited_at: v.nullable(IsoDateTime),
  deleted: v.boolean(),
});
export type Post = v.InferOutput<typeof Post>;

export const PostBody = v.object({ body: writtenText(1, 10_000) });
export type PostBody = v.InferOutput<typeof PostBody>;

export const ThreadCreateBody = v.object({
  category_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  title: writtenText(3, 120),
  body: writtenText(1, 10_000),
});
export type ThreadCreateBody = v.InferOutput<typeof ThreadCreateBody>;

export const ThreadCreated = v.object({ thread: ThreadSummary, post: Post });

export const ThreadPage = v.object({ thread: ThreadSummary, posts: v.array(Post), total: v.number(), page: v.number(), limit: v.number() });
export const ThreadList = v.object({ threads: v.array(ThreadSummary), total: v.number(), page: v.number(), limit: v.number() });
export const PostList = v.object({ posts: v.array(Post), total: v.number(), page: v.number(), limit: v.number() });
export const PostHistory = v.array(v.object({ body: v.string(), edited_at: IsoDateTime }));

export const ThreadAdminPatchBody = v.object({
  pinned: v.optional(v.boolean()),
  locked: v.optional(v.boolean()),
  hidden: v.optional(v.boolean()),
  category_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});
export type ThreadAdminPatchBody = v.InferOutput<typeof ThreadAdminPatchBody>;

export const ReportBody = v.object({ reason: writtenText(1, 500) });

export const ReportStatus = v.picklist(['open', 'dismissed', 'post_deleted', 'author_banned']);
export const Report = v.object({
  id: v.number(),
  post_id: v.number(),
  thread_id: v.number(),
  reporter_id: v.number(),
  reason: v.string(),
  status: ReportStatus,
  created_at: IsoDateTime,
  resolved_by: v.nullable(v.number()),
  resolved_at: v.nullable(IsoDateTime),
  resolution_reason: v.nullable(v.string()),
});
export type Report = v.InferOutput<typeof Report>;
export const ReportCreated = v.object({ id: v.number(), status: ReportStatus });
export const ReportListQuery = v.object({ status: v.optional(ReportStatus, 'open'), ...CommunityPageQuery.entries });
export const ReportList = v.object({ reports: v.array(Report), total: v.number(), page: v.number(), limit: v.number() });

export const ReportResolveBody = v.object({
  action: v.picklist(['dismiss', 'delete_post', 'ban_author'], 'action must be dismiss, delete_post or ban_author'),
  reason: writtenText(1, 500),
  /** ban_author only: when the ban ends (absent: until lifted). */
  expires_at: v.optional(IsoDateTime),
});
export type ReportResolveBody = v.InferOutput<typeof ReportResolveBody>;

/** socket.io: `thread:subscribe` and the `thread:post` push (realtime/thread-socket-handlers.ts). */
export const ThreadSubscribePayload = v.object({ id: v.pipe(v.number('id must be a number'), v.integer(), v.minValue(1)) });
export interface ThreadPostPush {
  thread_id: number;
  post: Post;
}

/** The `subject` of an approval of kind forum_post: the held post, and its thread's title when it starts one. */
export const ForumPostSubject = v.object({
  post_id: v.number(),
  thread_id: v.number(),
  thread_title: v.nullable(v.string()),
  excerpt: v.string(),
});
export type ForumPostSubject = v.InferOutput<typeof ForumPostSubject>;
