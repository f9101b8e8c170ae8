import type { Logger } from 'pino';
import { conflict, invalid, notFound } from '../domain/domain-error';
import { parseMapFileName } from '../domain/maps/map-file-name';
import { checkMayDelete, checkMayUpload, type MapActor } from '../domain/maps/map-permissions';
import type { MapRecord, MapRepository } from '../db/map-repository';
import type { MapSource } from './map-catalog';
import { mapStoreKey, type MapStore } from './map-store';
import { MapUpload } from './map-upload';
import type { UploadTempFiles } from './upload-temp-files';

/** 95 MiB: the specification's per-.bsp limit. */
export const MAX_MAP_BYTES = 95 * 1024 * 1024;
/** An upload may take this long; the native route ends it with 408 past it. */
export const UPLOAD_DEADLINE_MS = 10 * 60_000;
/** Past this, a `processing` upload of any host is orphaned whatever its process says. */
const ORPHAN_AGE_MS = 3 * UPLOAD_DEADLINE_MS;
const SWEEP_EVERY_MS = 5 * 60_000;

export interface MapLibraryDeps {
  repo: MapRepository;
  store: MapStore;
  temps: UploadTempFiles;
  premium: { activeGrant(userId: number, now: Date): Promise<unknown | null> };
  clock: () => number;
  logger: Logger;
  maxBytes?: number;
}

/**
 * Community maps: uploads (claimed, streamed, checked, stored, activated), the active list, and
 * deletion. A MapSource too: active maps join the map catalog (GET /api/servers/maps, lobby map
 * pools) the moment they are active and leave it the moment they are deleted, on every instance,
 * since the catalog asks the database each time.
 */
export class MapLibrary implements MapSource {
  /** Uploads of this process by their ref: the sweep leaves them alone, and a shutdown ends them. */
  private readonly running = new Map<string, MapUpload | null>();
  private sweeping: NodeJS.Timeout | undefined;

  constructor(private readonly deps: MapLibraryDeps) {}

  get maxBytes(): number {
    return this.deps.maxBytes ?? MAX_MAP_BYTES;
  }

  /** Cleans what a crashed run left (temporary files, `processing` rows), then keeps doing so now and then. */
  async start(): Promise<void> {
    await this.deps.temps.open();
    // A store that is down at start-up must not keep the server down: the next sweep retries.
    await this.sweep().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'map upload sweep failed'));
    this.sweeping = setInterval(() => {
      this.sweep().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'map upload sweep failed'));
    }, SWEEP_EVERY_MS);
    this.sweeping.unref();
  }

  /** Stops the sweep and ends uploads still streaming (temporary file removed, row rejected) while the database is open. */
  async close(): Promise<void> {
    clearInterval(this.sweeping);
    const open = [...this.running.values()].filter((upload): upload is MapUpload => upload !== null);
    await Promise.all(open.map((upload) => upload.abort('the server shut down during the upload')));
  }

  async sweep(): Promise<{ files: number; rows: number }> {
    const now = this.deps.clock();
    const files = await this.deps.temps.sweep(now, ORPHAN_AGE_MS, new Set(this.running.keys()));
    let rows = 0;
    for (const map of await this.deps.repo.listProcessing()) {
      const ref = map.uploadRef ?? '';
      if (!this.deps.temps.isOrphan(ref, now - map.createdAt.getTime(), ORPHAN_AGE_MS, new Set(this.running.keys()))) continue;
      if (await this.deps.repo.reject(map.id, 'the upload was interrupted (the server stopped)')) rows++;
      // It may have got as far as the store before the process died.
      await this.deps.store.delete(mapStoreKey(map));
    }
    if (files.length > 0 || rows > 0) this.deps.logger.info({ files: files.length, rows }, 'removed interrupted map uploads');
    return { files: files.length, rows };
  }

  mapNames(): Promise<string[]> {
    return this.deps.repo.activeNames();
  }

  list(): Promise<MapRecord[]> {
    return this.deps.repo.listActive();
  }

  async displayNames(): Promise<string[]> {
    return (await this.deps.repo.listActive()).map((map) => map.displayName);
  }

  async actor(user: { id: number; isAdmin: boolean }): Promise<MapActor> {
    const premiumActive = (await this.deps.premium.activeGrant(user.id, new Date(this.deps.clock()))) !== null;
    return { userId: user.id, isAdmin: user.isAdmin, premiumActive };
  }

  /** Whether the user may upload now (premium or admin): for the permission check and GET /api/maps/can-upload. */
  async mayUpload(user: { id: number; isAdmin: boolean }): Promise<boolean> {
    return checkMayUpload(await this.actor(user)) === null;
  }

  async assertMayUpload(user: { id: number; isAdmin: boolean }): Promise<void> {
    const refused = checkMayUpload(await this.actor(user));
    if (refused) throw refused;
  }

  /** Claims the name (409 if it is live) and opens the temporary file the bytes stream to. */
  async begin(uploaderId: number, fileName: string | undefined): Promise<MapUpload> {
    const parsed = parseMapFileName(fileName);
    if (!parsed.ok) throw invalid(parsed.reason);
    const { ref, path } = this.deps.temps.next();
    const claim = await this.deps.repo.claim({ name: parsed.name, displayName: parsed.name, uploaderId, uploadRef: ref, at: new Date(this.deps.clock()) });
    if (!claim.ok) {
      const what = claim.holder.status === 'active' ? 'is already active' : 'is being uploaded right now';
      throw conflict(`a map named "${parsed.name}" ${what} (id ${claim.holder.id})`);
    }
    this.running.set(ref, null);
    const settled = (done: string) => this.running.delete(done);
    try {
      const upload = await MapUpload.start({ repo: this.deps.repo, store: this.deps.store, logger: this.deps.logger, maxBytes: this.maxBytes, settled }, claim.map, ref, path);
      this.running.set(ref, upload);
      return upload;
    } catch (error) {
      settled(ref);
      await this.deps.repo.reject(claim.map.id, 'the upload could not be started');
      throw error;
    }
  }

  /** Uploader or admin; 404 for a map that is unknown, not active or already deleted. */
  async delete(actor: { userId: number; isAdmin: boolean }, id: number): Promise<void> {
    const map = await this.deps.repo.findActive(id);
    if (!map) throw notFound(`no active map with id ${id}`);
    const refused = checkMayDelete(actor, map);
    if (refused) throw refused;
    // The row first: the map leaves lists and the catalog at once, even if removing its bytes fails.
    if (!(await this.deps.repo.markDeleted(id, new Date(this.deps.clock())))) throw notFound(`no active map with id ${id}`);
    await this.deps.store.delete(mapStoreKey(map)).catch((error: unknown) => {
      this.deps.logger.error({ err: error, mapId: id }, 'deleted map file could not be removed from the store');
    });
  }
}
