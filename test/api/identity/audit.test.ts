import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { poll } from '../../support/poll';
import { call, grantPremium, issueKey } from './identity-fixtures';

const MEMBER = '76561198000000501';

async function auditRows(server: TestServerWithLogin, keyId: number) {
  return server.database.db.em().execute<Array<Record<string, unknown>>>(
    'select endpoint, method, client_hash, status from api_key_audit where key_id = ? order by id',
    [keyId],
  );
}

const eventually = <T>(read: () => Promise<T>, done: (value: T) => boolean) => poll(read, done, { withinMs: 5_000, what: 'audit rows' });

describe('auditing key uses', () => {
  let server: TestServerWithLogin;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServerWithLogin();
    const member = await server.login(MEMBER);
    cookie = member.cookie;
    await grantPremium(server, member.user.id, Date.now());
  });
  afterAll(async () => server?.close());

  it('records endpoint, method, hashed client address and status of every use, refusals included', async () => {
    const key = await issueKey(server, cookie, 'premium');
    await call(server, '/api/premium/api-keys/current', { bearer: key.raw });
    await call(server, '/api/admin/api-keys', { bearer: key.raw });
    const rows = await eventually(() => auditRows(server, key.id), (r) => r.length === 2);
    expect(rows).toEqual([
      { endpoint: '/api/premium/api-keys/current', method: 'GET', client_hash: expect.stringMatching(/^[0-9a-f]{64}$/), status: 200 },
      { endpoint: '/api/admin/api-keys', method: 'GET', client_hash: rows[0].client_hash, status: 403 },
    ]);
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect(rows[0].client_hash).not.toBe(createHash('sha256').update(address).digest('hex'));
    }
  });

  it('adds no database write before the answer: the row appears after the response, from the batch', async () => {
    const key = await issueKey(server, cookie, 'premium');
    expect((await call(server, '/api/premium/api-keys/current', { bearer: key.raw })).status).toBe(200);
    expect(await auditRows(server, key.id)).toHaveLength(0);
    expect(await eventually(() => auditRows(server, key.id), (r) => r.length === 1)).toHaveLength(1);
  });
});

describe('a graceful shutdown', () => {
  it('writes the queued audit rows before the database closes', async () => {
    const server = await startTestServerWithLogin();
    try {
      const member = await server.login(MEMBER);
      await grantPremium(server, member.user.id, Date.now());
      const key = await issueKey(server, member.cookie, 'premium');
      for (let i = 0; i < 5; i++) await call(server, '/api/premium/api-keys/current', { bearer: key.raw });
      await server.server.close();
      expect(await auditRows(server, key.id)).toHaveLength(5);
    } finally {
      await server.close();
    }
  });
});
