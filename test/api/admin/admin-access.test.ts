import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRoutes } from '../../../schema/routes/admin-routes';
import { keysRoutes } from '../../../schema/routes/keys-routes';
import { grantPremium, issueKey } from '../identity/identity-fixtures';
import { startAdminWorld, type AdminWorld } from './admin-fixtures';

let world: AdminWorld;
beforeAll(async () => {
  world = await startAdminWorld();
}, 60_000);
afterAll(() => world?.server.close());

/** Every route of the admin area that takes an admin session or an admin key. */
const guarded = [...Object.values(adminRoutes), keysRoutes.listAllKeys, keysRoutes.revokeAnyKey].filter((r) => r.role === 'admin');
const concrete = (path: string) => path.replace(':id', '999999').replace(':code', 'ZZZZZZ');

async function status(path: string, method: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${world.server.url}${path}`, {
    method: method.toUpperCase(),
    headers: { ...headers, 'content-type': 'application/json' },
    body: method === 'get' || method === 'delete' ? undefined : '{}',
  });
  await response.arrayBuffer();
  return response.status;
}

describe('the admin area', () => {
  it('answers 401 to every admin route without a credential', async () => {
    for (const route of guarded) expect(await status(concrete(route.path), route.method, {}), `${route.method} ${route.path}`).toBe(401);
  });

  it('answers 403 to every admin route for a logged-in non-admin', async () => {
    const someone = await world.player();
    for (const route of guarded) {
      expect(await status(concrete(route.path), route.method, { cookie: someone.cookie }), `${route.method} ${route.path}`).toBe(403);
    }
  });

  it('answers 403 to every admin route for a premium key', async () => {
    const member = await world.player();
    await grantPremium(world.server, member.id, Date.now());
    const { raw } = await issueKey(world.server, member.cookie, 'premium');
    for (const route of guarded) {
      expect(await status(concrete(route.path), route.method, { authorization: `Bearer ${raw}` }), `${route.method} ${route.path}`).toBe(403);
    }
  });

  it('lets an admin session and an admin key through to every admin route (past the credential check)', async () => {
    for (const route of guarded) {
      const path = concrete(route.path);
      expect([401, 403], `session ${route.method} ${route.path}`).not.toContain(await status(path, route.method, { cookie: world.admin.cookie }));
      expect([401, 403], `key ${route.method} ${route.path}`).not.toContain(await status(path, route.method, { authorization: `Bearer ${world.adminKey}` }));
    }
  });

  it('answers 403 to a listed admin whose admin flag an operator removed', async () => {
    await world.server.server.db.em().execute('update users set is_admin = false where id = ?', [world.admin.id]);
    try {
      expect(await status('/api/admin/audit', 'get', { cookie: world.admin.cookie })).toBe(403);
      expect(await status('/api/admin/audit', 'get', { authorization: `Bearer ${world.adminKey}` })).toBe(403);
    } finally {
      await world.server.server.db.em().execute('update users set is_admin = true where id = ?', [world.admin.id]);
    }
  });
});
