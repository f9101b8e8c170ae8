import { createHash, type Hash } from 'node:crypto';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { conflict, invalid, tooLarge } from '../domain/domain-error';
import { BSP_HEADER_BYTES, checkBspHeader, checkBspStart, takeHeaderBytes } from '../domain/maps/bsp-header';
import type { MapRecord, MapRepository } from '../db/map-repository';
import { mapStoreKey, type MapStore } from './map-store';

export interface MapUploadDeps {
  repo: MapRepository;
  store: MapStore;
  logger: Logger;
  maxBytes: number;
  /** Called once the upload has settled either way (the library stops counting it as running). */
  settled: (ref: string) => void;
}

const human = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MiB`;

/**
 * One upload in flight: its `processing` row is claimed, its bytes stream through `sink` into a
 * temporary file while they are counted, hashed and their first bytes checked. It ends in
 * `finish` (checked, stored, active) or `abort` (temporary file removed, row rejected with the
 * reason); nothing of it stays half-written either way.
 */
export class MapUpload {
  readonly sink: Writable;
  private bytes = 0;
  private header: Uint8Array = new Uint8Array(0);
  private readonly hash: Hash = createHash('sha256');
  private done = false;

  private constructor(
    private readonly deps: MapUploadDeps,
    readonly map: MapRecord,
    private readonly ref: string,
    private readonly path: string,
    private readonly file: FileHandle,
  ) {
    this.sink = new Writable({
      highWaterMark: 256 * 1024,
      write: (chunk: Buffer, _encoding, callback) => {
        const refused = this.take(chunk);
        if (refused) return callback(refused);
        this.file.write(chunk).then(() => callback(), callback);
      },
      final: (callback) => callback(),
    });
  }

  static async start(deps: MapUploadDeps, map: MapRecord, ref: string, path: string): Promise<MapUpload> {
    const file = await open(path, 'wx');
    return new MapUpload(deps, map, ref, path, file);
  }

  /** Counts, hashes and checks one chunk; the refusal ends the upload (413 or 400). */
  private take(chunk: Buffer): Error | null {
    this.bytes += chunk.length;
    if (this.bytes > this.deps.maxBytes) return tooLarge(`map files are limited to ${human(this.deps.maxBytes)} (${this.deps.maxBytes} bytes)`);
    if (this.header.length < BSP_HEADER_BYTES) {
      this.header = takeHeaderBytes(this.header, chunk);
      const start = checkBspStart(this.header);
      if (start && !start.ok) return invalid(start.reason);
    }
    this.hash.update(chunk);
    return null;
  }

  /** After the sink has finished: checks the whole header, then stores the file and activates the map. */
  async finish(displayName: string | undefined): Promise<MapRecord> {
    await this.file.close();
    const check = checkBspHeader(this.header, this.bytes);
    if (!check.ok) {
      await this.settle(check.reason);
      throw invalid(check.reason);
    }
    const sha256 = this.hash.digest('hex');
    const twin = await this.deps.repo.findActiveBySha256(sha256);
    if (twin) {
      const reason = `the same file is already active as map "${twin.name}" (id ${twin.id})`;
      await this.settle(reason, sha256);
      throw conflict(reason);
    }
    const key = mapStoreKey(this.map);
    try {
      await this.deps.store.put(key, this.path, this.bytes);
    } catch (error) {
      await this.settle('the map could not be stored', sha256);
      throw error;
    }
    const activated = await this.deps.repo
      .activate(this.map.id, { sizeBytes: this.bytes, sha256, displayName: displayName ?? this.map.displayName })
      .catch(async (error: unknown) => {
        await this.deps.store.delete(key).catch(() => undefined);
        await this.settle('the map could not be recorded', sha256);
        throw error;
      });
    if (!activated.ok) {
      await this.deps.store.delete(key);
      const reason = activated.sameContent
        ? `the same file is already active as map "${activated.sameContent.name}" (id ${activated.sameContent.id})`
        : 'the upload was rejected while it was being stored';
      await this.settle(reason, sha256);
      throw conflict(reason);
    }
    this.done = true;
    this.deps.settled(this.ref);
    return activated.map;
  }

  /** Ends the upload without a map: 413, a bad file, a client gone, a server error. Idempotent. */
  async abort(reason: string): Promise<void> {
    if (this.done) return;
    this.sink.destroy();
    await this.file.close().catch(() => undefined);
    await this.settle(reason);
  }

  private async settle(reason: string, sha256?: string): Promise<void> {
    if (this.done) return;
    this.done = true;
    try {
      await unlink(this.path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      await this.deps.repo.reject(this.map.id, reason, this.bytes, sha256);
    } catch (error) {
      // The sweep (map-library.ts) finishes what could not be cleaned here.
      this.deps.logger.error({ err: error, mapId: this.map.id }, 'map upload clean-up failed');
    } finally {
      this.deps.settled(this.ref);
    }
  }
}
