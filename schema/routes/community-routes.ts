import * as v from 'valibot';
import {
  Category,
  CategoryCreateBody,
  CategoryPatchBody,
  CategorySlugParams,
  CommunityIdParams,
  CommunityPageQuery,
  CommunitySearchQuery,
  Post,
  PostBody,
  PostHistory,
  PostList,
  Report,
  ReportBody,
  ReportCreated,
  ReportList,
  ReportListQuery,
  ReportResolveBody,
  ThreadAdminPatchBody,
  ThreadCreateBody,
  ThreadCreated,
  ThreadList,
  ThreadPage,
  ThreadSummary,
} from '../community';
import { ApprovalPending } from '../approvals';
import { UserIdParams } from '../identity';
import { defineRoute, tagAccess } from '../route-contract';

const tag = 'Community';
const { admin, session } = tagAccess(tag);
const QUEUE_NOTE =
  ' While COMMUNITY_QUEUE_FIRST_POSTS is above 0, a user\'s first posts wait for an admin instead: the answer is 202 {approval_id} and the post shows once the approval (kind forum_post) is approved.';
const QUEUED = { status: 202, schema: ApprovalPending, description: 'The post waits in the first-post queue as an approval of kind forum_post' };
const LIMIT_NOTE = ' New threads and replies count against COMMUNITY_POSTS_PER_MINUTE per user across every instance (429 with Retry-After).';

/** The forum (docs/design/CONTRACT.md "Community"). */
export const communityRoutes = {
  categories: defineRoute({
    operationId: 'listCommunityCategories', method: 'get', path: '/api/community/categories', tag, auth: [],
    summary: 'Every forum category in display order',
    description: 'Categories sorted by position, each with the number of threads anyone may read in it.',
    success: { status: 200, schema: v.array(Category) }, errors: [],
  }),
  threadsInCategory: defineRoute({
    operationId: 'listCommunityThreads', method: 'get', path: '/api/community/categories/:slug/threads', tag, auth: [], optionalSession: true,
    summary: "A category's threads, pinned first, then newest activity",
    description: 'Paged (page 1-based, limit 1-100, default 20; out of range: 400). Hidden threads are listed only to an admin session. Unknown slug: 404.',
    params: CategorySlugParams, query: CommunityPageQuery, success: { status: 200, schema: ThreadList }, errors: [400, 404],
  }),
  createThread: defineRoute({
    operationId: 'createCommunityThread', method: 'post', path: '/api/community/threads', ...session,
    summary: 'Starts a thread with its first post',
    description: `Title 3-120 characters, body 1-10000 characters of markdown, stored as written and rendered to sanitised HTML once. A category with admin_only_posting takes threads from admins only (403); a banned user gets 403.${LIMIT_NOTE}${QUEUE_NOTE}`,
    body: ThreadCreateBody, bodyExample: { category_id: 1, title: 'LF1M medic for Sunday scrims', body: 'We play **Sundays at 8pm CET**. Details: https://example.org' },
    success: { status: 201, schema: ThreadCreated }, alsoSuccess: [QUEUED], errors: [400, 401, 403, 404, 429],
  }),
  thread: defineRoute({
    operationId: 'getCommunityThread', method: 'get', path: '/api/community/threads/:id', tag, auth: [], optionalSession: true,
    summary: 'A thread and one page of its posts, oldest first',
    description: 'Paged (page 1-based, limit 1-100, default 20). Deleted posts keep their place with an empty body and deleted: true. A hidden or deleted thread is 404 except to an admin session.',
    params: CommunityIdParams, query: CommunityPageQuery, success: { status: 200, schema: ThreadPage }, errors: [400, 404],
  }),
  reply: defineRoute({
    operationId: 'replyToCommunityThread', method: 'post', path: '/api/community/threads/:id/posts', ...session,
    summary: 'Replies in a thread',
    description: `Body 1-10000 characters of markdown. A locked thread answers 409 (admins may still reply); a hidden thread 404; a banned user 403. The new post is pushed to the thread's socket subscribers as thread:post.${LIMIT_NOTE}${QUEUE_NOTE}`,
    params: CommunityIdParams, body: PostBody, bodyExample: { body: 'Count me in, I can play *medic*.' },
    success: { status: 201, schema: Post }, alsoSuccess: [QUEUED], errors: [400, 401, 403, 404, 409, 429],
  }),
  editPost: defineRoute({
    operationId: 'editCommunityPost', method: 'patch', path: '/api/community/posts/:id', ...session,
    summary: 'Edits a post (its author or an admin), keeping the old text in its history',
    description: 'The replaced text is kept (GET .../history) and edited_at set. A deleted post is 404; a locked thread 409 for its author; another user 403. Pushed as thread:post.',
    params: CommunityIdParams, body: PostBody, bodyExample: { body: 'Count me in, I can play *medic* or *demo*.' },
    success: { status: 200, schema: Post }, errors: [400, 401, 403, 404, 409],
  }),
  deletePost: defineRoute({
    operationId: 'deleteCommunityPost', method: 'delete', path: '/api/community/posts/:id', ...session,
    summary: 'Deletes a post (its author or an admin); the first post deletes its thread',
    description: 'Soft delete: the post keeps its place with an empty body and deleted: true. Deleting the first post of a thread deletes the thread (404 afterwards). Already deleted: 404. Pushed as thread:post.',
    params: CommunityIdParams, success: { status: 204 }, errors: [401, 403, 404, 409],
  }),
  history: defineRoute({
    operationId: 'getCommunityPostHistory', method: 'get', path: '/api/community/posts/:id/history', ...session,
    summary: 'The earlier texts of a post (its author or an admin)',
    description: 'One entry per edit, oldest first: the text the post had and when it was replaced.',
    params: CommunityIdParams, success: { status: 200, schema: PostHistory }, errors: [401, 403, 404],
  }),
  report: defineRoute({
    operationId: 'reportCommunityPost', method: 'post', path: '/api/community/posts/:id/report', ...session,
    summary: 'Flags a post for the admins',
    description: 'Reason 1-500 characters. One report per user and post (a second: 409). A banned user gets 403.',
    params: CommunityIdParams, body: ReportBody, bodyExample: { reason: 'Spam: the same link posted in five threads' },
    success: { status: 201, schema: ReportCreated }, errors: [400, 401, 403, 404, 409],
  }),
  userPosts: defineRoute({
    operationId: 'listUserCommunityPosts', method: 'get', path: '/api/users/:userId/posts', tag, auth: [],
    summary: "A user's forum posts, newest first (their profile)",
    description: 'The user is addressed by id, as GET /api/users/card/{userId}. Only standing posts in threads anyone may read. Paged (page 1-based, limit 1-100, default 20).',
    params: UserIdParams, query: CommunityPageQuery, success: { status: 200, schema: PostList }, errors: [400],
  }),
  search: defineRoute({
    operationId: 'searchCommunity', method: 'get', path: '/api/community/search', tag, auth: [],
    summary: 'Full-text search over thread titles and post bodies',
    description: 'Postgres full-text search (English configuration, web-search syntax: words, "phrases", -exclusions), best match first; answers the threads that match by title or by a standing post. q is 2-200 characters. Paged.',
    query: CommunitySearchQuery, success: { status: 200, schema: ThreadList }, errors: [400],
  }),
  createCategory: defineRoute({
    operationId: 'createCommunityCategory', method: 'post', path: '/api/admin/community/categories', ...admin,
    summary: 'Creates a forum category',
    description: 'slug is lower-case letters and digits joined by hyphens, unique (409 when taken). Writes an admin_audit row.',
    body: CategoryCreateBody, bodyExample: { slug: 'recruitment', name: 'Recruitment', description: 'Teams looking for players and players looking for teams', position: 1 },
    success: { status: 201, schema: Category }, errors: [400, 401, 403, 409],
  }),
  updateCategory: defineRoute({
    operationId: 'updateCommunityCategory', method: 'patch', path: '/api/admin/community/categories/:id', ...admin,
    summary: 'Changes a forum category',
    description: 'Every field optional; a slug already taken is 409. Writes an admin_audit row with the category before and after.',
    params: CommunityIdParams, body: CategoryPatchBody, bodyExample: { name: 'Recruitment and free agents', admin_only_posting: false },
    success: { status: 200, schema: Category }, errors: [400, 401, 403, 404, 409],
  }),
  deleteCategory: defineRoute({
    operationId: 'deleteCommunityCategory', method: 'delete', path: '/api/admin/community/categories/:id', ...admin,
    summary: 'Deletes an empty forum category',
    description: 'Refused with 409 while any thread (deleted ones included) is in it: move or keep them first. Writes an admin_audit row.',
    params: CommunityIdParams, success: { status: 204 }, errors: [401, 403, 404, 409],
  }),
  moderateThread: defineRoute({
    operationId: 'moderateCommunityThread', method: 'patch', path: '/api/admin/community/threads/:id', ...admin,
    summary: 'Pins, locks, hides or moves a thread',
    description: 'Every field optional; category_id moves the thread (404 for an unknown category). Writes an admin_audit row with the thread before and after.',
    params: CommunityIdParams, body: ThreadAdminPatchBody, bodyExample: { pinned: true, locked: true },
    success: { status: 200, schema: ThreadSummary }, errors: [400, 401, 403, 404],
  }),
  reports: defineRoute({
    operationId: 'listCommunityReports', method: 'get', path: '/api/admin/community/reports', ...admin,
    summary: 'Reports on posts, oldest first',
    description: 'Filtered by status (open by default). Paged (page 1-based, limit 1-100, default 20).',
    query: ReportListQuery, success: { status: 200, schema: ReportList }, errors: [400, 401, 403],
  }),
  resolveReport: defineRoute({
    operationId: 'resolveCommunityReport', method: 'post', path: '/api/admin/community/reports/:id/resolve', ...admin,
    summary: 'Resolves a report: dismiss it, delete the post, or ban its author',
    description: 'An open report only (409 once resolved). delete_post soft-deletes the post in the same transaction; ban_author bans through the admin bans (optional expires_at), with its own audit row. Writes an admin_audit row.',
    params: CommunityIdParams, body: ReportResolveBody, bodyExample: { action: 'delete_post', reason: 'Spam' },
    success: { status: 200, schema: Report }, errors: [400, 401, 403, 404, 409],
  }),
};
