import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapStore } from '../../src/maps/map-store';

export interface MapStoreHarness {
  store: MapStore;
  /** Where put() takes temporary files from (a directory store needs them on its own file system). */
  tempDir: string;
  close(): Promise<void>;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The one suite every MapStore passes. */
export function mapStoreContract(name: string, open: () => Promise<MapStoreHarness>): void {
  describe(`${name} (MapStore contract)`, () => {
    let h: MapStoreHarness;
    let scratch: string;
    beforeAll(async () => {
      h = await open();
      scratch = await mkdtemp(join(tmpdir(), 'map-store-contract-'));
    });
    afterAll(async () => {
      await h?.close();
      await rm(scratch, { recursive: true, force: true });
    });

    async function tempFile(bytes: Buffer): Promise<string> {
      const path = join(h.tempDir, `contract-${randomBytes(6).toString('hex')}.part`);
      await writeFile(path, bytes);
      return path;
    }

    it('gives back exactly the bytes that were put', async () => {
      const bytes = randomBytes(300_000);
      await h.store.put('1-cp_contract.bsp', await tempFile(bytes), bytes.length);
      const stream = await h.store.get('1-cp_contract.bsp');
      expect(stream).not.toBeNull();
      expect((await readAll(stream!)).equals(bytes)).toBe(true);
    });

    it('reports the stored size', async () => {
      const bytes = randomBytes(12_345);
      await h.store.put('2-koth_size.bsp', await tempFile(bytes), bytes.length);
      expect(await h.store.size('2-koth_size.bsp')).toBe(12_345);
    });

    it('takes the temporary file away on put', async () => {
      const bytes = randomBytes(100);
      const path = await tempFile(bytes);
      await h.store.put('3-pl_moved.bsp', path, bytes.length);
      expect((await readdir(h.tempDir)).includes(path.split('/').pop()!)).toBe(false);
    });

    it('answers null for a key never stored', async () => {
      expect(await h.store.get('999-nothing_here.bsp')).toBeNull();
      expect(await h.store.size('999-nothing_here.bsp')).toBeNull();
    });

    it('forgets a deleted key', async () => {
      const bytes = randomBytes(2048);
      await h.store.put('4-cp_gone.bsp', await tempFile(bytes), bytes.length);
      await h.store.delete('4-cp_gone.bsp');
      expect(await h.store.get('4-cp_gone.bsp')).toBeNull();
      expect(await h.store.size('4-cp_gone.bsp')).toBeNull();
    });

    it('deletes a missing key without an error', async () => {
      await expect(h.store.delete('998-never_was.bsp')).resolves.toBeUndefined();
    });

    it('replaces what a key held when it is put again', async () => {
      const first = randomBytes(500);
      const second = randomBytes(700);
      await h.store.put('5-cp_again.bsp', await tempFile(first), first.length);
      await h.store.put('5-cp_again.bsp', await tempFile(second), second.length);
      expect((await readAll((await h.store.get('5-cp_again.bsp'))!)).equals(second)).toBe(true);
    });
  });
}
