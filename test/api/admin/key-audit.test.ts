import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../identity/identity-fixtures';
import { startAdminWorld, type AdminWorld } from './admin-fixtures';

describe('admin key issuance in the admin audit', () => {
  let world: AdminWorld;
  beforeAll(async () => {
    world = await startAdminWorld();
  });
  afterAll(() => world?.server.close());

  const auditOf = async (action: string, keyId: number) =>
    (await world.asKey(`/api/admin/audit?action=${action}&target_type=api_key&target_id=${keyId}`)).body;

  it('writes one row per issued admin key, naming the admin and the key without its secret', async () => {
    const first = await issueKey(world.server, world.admin.cookie, 'admin', { label: 'deploy bot' });
    const second = await issueKey(world.server, world.admin.cookie, 'admin');
    for (const key of [first, second]) {
      const page = await auditOf('api_key.issue', key.id);
      expect(page.total).toBe(1);
      expect(page.entries[0]).toMatchObject({
        actor_id: world.admin.user.id,
        action: 'api_key.issue',
        target_type: 'api_key',
        target_id: String(key.id),
        before: null,
        after: { id: key.id, user_id: world.admin.user.id, kind: 'admin', key_prefix: key.raw.slice(0, 12) },
      });
      expect(JSON.stringify(page.entries[0])).not.toContain(key.raw);
    }
    expect((await auditOf('api_key.issue', first.id)).entries[0].after.label).toBe('deploy bot');
  });

  it('writes a row with the before and after when an admin revokes a key', async () => {
    const key = await issueKey(world.server, world.admin.cookie, 'admin');
    expect((await world.asKey(`/api/admin/api-keys/${key.id}`, { method: 'DELETE' })).status).toBe(204);
    const page = await auditOf('api_key.revoke', key.id);
    expect(page.total).toBe(1);
    expect(page.entries[0]).toMatchObject({ actor_id: world.admin.user.id, before: { revoked_at: null }, after: { revoked_at: expect.any(String) } });
  });

  it('writes no row when the issue is refused', async () => {
    const before = (await world.asKey('/api/admin/audit?action=api_key.issue')).body.total;
    const response = await fetch(`${world.server.url}/api/admin/api-keys`, {
      method: 'POST',
      headers: { cookie: world.admin.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: 999_999 }),
    });
    expect(response.status).toBe(404);
    expect((await world.asKey('/api/admin/audit?action=api_key.issue')).body.total).toBe(before);
  });
});
