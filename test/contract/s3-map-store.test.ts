import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { S3MapStore } from '../../src/maps/s3-map-store';
import { startFakeS3 } from '../fakes/fake-s3';
import { mapStoreContract } from './map-store.contract';

mapStoreContract('S3MapStore against the fake S3', async () => {
  const s3 = await startFakeS3();
  const tempDir = await mkdtemp(join(tmpdir(), 'map-store-s3-'));
  const store = new S3MapStore({
    bucket: s3.bucket,
    prefix: 'maps/',
    region: 'us-east-1',
    endpoint: s3.url,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  return {
    store,
    tempDir,
    async close() {
      store.close();
      await s3.close();
      await rm(tempDir, { recursive: true, force: true });
    },
  };
});

describe('S3MapStore', () => {
  it('keeps objects under its prefix in the bucket, signed with the configured key', async () => {
    const s3 = await startFakeS3();
    const tempDir = await mkdtemp(join(tmpdir(), 'map-store-s3-'));
    const store = new S3MapStore({ bucket: s3.bucket, prefix: 'maps/', region: 'eu-west-1', endpoint: s3.url, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    try {
      const path = join(tempDir, 'x.part');
      await import('node:fs/promises').then((fs) => fs.writeFile(path, 'VBSP'));
      await store.put('7-cp_prefix.bsp', path, 4);
      expect(s3.keys()).toEqual(['maps/7-cp_prefix.bsp']);
    } finally {
      store.close();
      await s3.close();
      await rm(tempDir, { recursive: true, force: true });
    }
  });

  it('fails loudly when the secret is wrong (the fake checks the SigV4 signature)', async () => {
    const s3 = await startFakeS3();
    const store = new S3MapStore({ bucket: s3.bucket, prefix: 'maps/', region: 'us-east-1', endpoint: s3.url, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: 'not-the-secret' } });
    try {
      await expect(store.size('1-x.bsp')).rejects.toThrow();
    } finally {
      store.close();
      await s3.close();
    }
  });
});
