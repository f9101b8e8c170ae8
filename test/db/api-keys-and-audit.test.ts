import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyRepository } from '../../src/db/api-key-repository';
import { AuditRepository, type ApiKeyAuditRow } from '../../src/db/audit-repository';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { makeUsers } from './fixtures';

const sha256 = (raw: string) => createHash('sha256').update(raw).digest('hex');
const T0 = new Date('2026-04-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe('API keys and their audit log', () => {
  let t: TestDatabase;
  let keys: ApiKeyRepository;
  let audit: AuditRepository;
  let userId: number;
  let otherUserId: number;
  beforeAll(async () => {
    t = await createTestDatabase();
    keys = new ApiKeyRepository(t.db);
    audit = new AuditRepository(t.db);
    [{ id: userId }, { id: otherUserId }] = await makeUsers(t.db, [{}, {}]);
  });
  afterAll(() => t?.drop());

  const issue = (raw: string, owner = userId) =>
    keys.insert({ userId: owner, kind: 'premium', label: 'bot', keyHash: sha256(raw), keyPrefix: raw.slice(0, 12) });

  it('stores a key by its hash and finds it by the hash', async () => {
    const raw = 'svc_pk_' + 'a'.repeat(43);
    const key = await issue(raw);
    expect(key).toMatchObject({ userId, kind: 'premium', keyPrefix: 'svc_pk_aaaaa', revokedAt: null });
    expect(key.createdAt).toBeInstanceOf(Date);
    expect((await keys.findActiveByHash(sha256(raw)))?.id).toBe(key.id);
  });

  it('refuses a second key with the same hash', async () => {
    const raw = 'svc_pk_' + 'b'.repeat(43);
    await issue(raw);
    await expect(issue(raw)).rejects.toThrow();
  });

  it('no longer finds a revoked key, and revokes only once', async () => {
    const raw = 'svc_pk_' + 'c'.repeat(43);
    const key = await issue(raw);
    expect(await keys.revoke(key.id, at(5), userId)).toBe(true);
    expect(await keys.revoke(key.id, at(6), userId)).toBe(false);
    expect(await keys.findActiveByHash(sha256(raw))).toBeNull();
    expect((await keys.findById(key.id))?.revokedAt).toEqual(at(5));
  });

  it("does not revoke another user's key", async () => {
    const key = await issue('svc_pk_' + 'd'.repeat(43));
    expect(await keys.revoke(key.id, at(5), otherUserId)).toBe(false);
  });

  it('counts and lists a user’s keys newest first', async () => {
    const [{ id: owner }] = await makeUsers(t.db, [{}]);
    const first = await issue('svc_pk_' + 'e'.repeat(43), owner);
    const second = await issue('svc_pk_' + 'f'.repeat(43), owner);
    await keys.revoke(first.id, at(1));
    expect((await keys.listByUser(owner)).map((k) => k.id)).toEqual([second.id, first.id]);
    expect(await keys.countActiveByUser(owner, 'premium')).toBe(1);
  });

  it('writes a batch of audit rows and reads the newest per key, at most the limit each', async () => {
    const one = await issue('svc_pk_' + 'g'.repeat(43));
    const two = await issue('svc_pk_' + 'h'.repeat(43));
    const silent = await issue('svc_pk_' + 'i'.repeat(43));
    const row = (keyId: number, n: number): ApiKeyAuditRow => ({
      keyId,
      endpoint: `/api/lobbies/${n}`,
      method: 'GET',
      clientHash: 'c'.repeat(64),
      status: 200,
      createdAt: at(n),
    });
    await audit.insertMany([...Array.from({ length: 25 }, (_, n) => row(one.id, n)), row(two.id, 100), row(two.id, 101)]);

    const last = await audit.lastPerKey([one.id, two.id, silent.id], 20);
    expect(last.get(one.id)?.map((r) => r.endpoint)).toEqual(
      Array.from({ length: 20 }, (_, i) => `/api/lobbies/${24 - i}`),
    );
    expect(last.get(two.id)?.map((r) => r.createdAt)).toEqual([at(101), at(100)]);
    expect(last.get(silent.id)).toEqual([]);
  });

  it('does nothing for an empty batch', async () => {
    await expect(audit.insertMany([])).resolves.toBeUndefined();
    expect(await audit.lastPerKey([])).toEqual(new Map());
  });
});
