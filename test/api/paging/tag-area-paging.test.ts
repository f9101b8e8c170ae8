import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAdminWorld, type AdminWorld } from '../admin/admin-fixtures';

/*
 * docs/design/CONTRACT.md, "Tag areas": a paged list takes `page` (1-based) and `limit` (at most
 * 100), and a value out of range is a 400, not clamped. Every such list takes them from one
 * definition (schema/paging.ts), so each refusal reads the same on every list.
 */
const PAGED_LISTS = [
  '/api/teams',
  '/api/tournaments',
  '/api/cups',
  '/api/community/categories/general/threads',
  '/api/community/threads/1',
  '/api/community/search?q=map',
  '/api/users/1/posts',
  '/api/admin/community/reports',
  '/api/approvals/mine',
  '/api/admin/approvals',
  '/api/admin/logs',
  '/api/admin/notifications/webhooks',
  '/api/admin/notifications/deliveries',
];

let world: AdminWorld;
beforeAll(async () => {
  world = await startAdminWorld();
}, 60_000);
afterAll(() => world?.server.close());

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

it.each([
  { query: 'page=0', error: 'must be at least 1' },
  { query: 'page=-3', error: 'must be at least 1' },
  { query: 'page=1.5', error: 'must be an integer' },
  { query: 'limit=101', error: 'must be at most 100' },
  { query: 'limit=0', error: 'must be at least 1' },
])('refuses $query with the same 400 on every paged list of the tag areas', async ({ query, error }) => {
  const field = query.split('=')[0];
  for (const path of PAGED_LISTS) {
    const answer = await world.admin.get(withQuery(path, query));
    expect({ path, status: answer.status }).toEqual({ path, status: 400 });
    expect(answer.body.error, path).toContain(field);
    expect(answer.body.error, path).toContain(error);
  }
});

it('answers the page and limit it was asked for on every paged list of the tag areas', async () => {
  for (const path of PAGED_LISTS.filter((p) => !p.includes('/threads/1') && !p.includes('/categories/'))) {
    const answer = await world.admin.get(withQuery(path, 'page=2&limit=100'));
    expect({ path, status: answer.status, page: answer.body.page, limit: answer.body.limit }).toEqual({ path, status: 200, page: 2, limit: 100 });
  }
});
