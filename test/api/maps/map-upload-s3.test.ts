import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeS3, type FakeS3 } from '../../fakes/fake-s3';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { buildBsp } from '../../support/bsp-file';
import { grantPremium } from '../identity/identity-fixtures';
import { catalog, deleteMap, filesOnDisk, uploadMap } from './maps-client';

const MEMBER = '76561198000001501';

let s3: FakeS3;
let server: TestServerWithLogin;
let cookie: string;

beforeAll(async () => {
  s3 = await startFakeS3({ bucket: 'league-maps-test' });
  server = await startTestServerWithLogin({
    MAPS_S3_BUCKET: s3.bucket,
    MAPS_S3_ENDPOINT: s3.url,
    MAPS_S3_REGION: 'eu-central-1',
    MAPS_S3_ACCESS_KEY_ID: s3.accessKeyId,
    MAPS_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    MAPS_S3_PREFIX: 'community/',
  });
  const member = await server.login(MEMBER);
  cookie = member.cookie;
  await grantPremium(server, member.user.id, Date.now());
});
afterAll(async () => {
  await server?.close();
  await s3?.close();
});

it('stores an uploaded map in the configured bucket, byte for byte, and nothing on local disk', async () => {
  const bytes = buildBsp({ revision: 501, padding: 300_000 });
  const response = await uploadMap(server, { cookie }, 'cp_in_bucket.bsp', bytes);
  expect(response.status).toBe(201);
  const entry = await response.json();
  expect(s3.keys()).toEqual([`community/${entry.id}-cp_in_bucket.bsp`]);
  expect(s3.object(`community/${entry.id}-cp_in_bucket.bsp`)!.equals(bytes)).toBe(true);
  expect(await filesOnDisk(server.env.DATA_DIR)).toEqual({ stored: [], temporary: [] });
});

it('removes the object when the map is deleted', async () => {
  const entry = await (await uploadMap(server, { cookie }, 'cp_bucket_delete.bsp', buildBsp({ revision: 502 }))).json();
  expect(s3.keys()).toContain(`community/${entry.id}-cp_bucket_delete.bsp`);
  expect((await deleteMap(server, { cookie }, entry.id)).status).toBe(204);
  expect(s3.keys()).not.toContain(`community/${entry.id}-cp_bucket_delete.bsp`);
  expect(await catalog(server)).not.toContain('cp_bucket_delete');
});

it('puts nothing in the bucket for a refused file', async () => {
  const before = s3.keys();
  const response = await uploadMap(server, { cookie }, 'cp_bucket_refused.bsp', buildBsp({ version: 17 }));
  expect(response.status).toBe(400);
  expect(s3.keys()).toEqual(before);
});
