import type { InferEntity } from '@mikro-orm/core';
import { ApiKey } from './entities';
import type { EmSource, EntityManager } from './orm';

export type ApiKeyKind = 'premium' | 'admin';

export interface ApiKeyRecord {
  id: number;
  userId: number;
  kind: ApiKeyKind;
  label: string | null;
  keyHash: string;
  keyPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface NewApiKey {
  userId: number;
  kind: ApiKeyKind;
  label: string | null;
  /** SHA-256 of the raw key, lowercase hex. The raw key is never stored. */
  keyHash: string;
  /** The first 12 characters of the raw key, to recognise it in lists. */
  keyPrefix: string;
}

export class ApiKeyRepository {
  constructor(private readonly db: EmSource) {}

  /** `em`, here and below: the caller's transaction (an admin key and its audit row are written together). */
  async insert(key: NewApiKey, em: EntityManager = this.db.em()): Promise<ApiKeyRecord> {
    const { userId, ...fields } = key;
    const entity = em.create(ApiKey, { ...fields, user: userId });
    await em.flush();
    return toApiKeyRecord(entity);
  }

  /** The key a request presented, if it exists and is not revoked. */
  async findActiveByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const key = await this.db.em().findOne(ApiKey, { keyHash, revokedAt: null });
    return key ? toApiKeyRecord(key) : null;
  }

  async findById(id: number, em: EntityManager = this.db.em()): Promise<ApiKeyRecord | null> {
    const key = await em.findOne(ApiKey, { id });
    return key ? toApiKeyRecord(key) : null;
  }

  /** Newest first, revoked ones included. */
  async listByUser(userId: number, kind?: ApiKeyKind): Promise<ApiKeyRecord[]> {
    const keys = await this.db
      .em()
      .find(ApiKey, { user: userId, ...(kind ? { kind } : {}) }, { orderBy: { id: 'desc' } });
    return keys.map(toApiKeyRecord);
  }

  /** Every key, newest first (admin view). */
  async listAll(limit = 500): Promise<ApiKeyRecord[]> {
    const keys = await this.db.em().find(ApiKey, {}, { orderBy: { id: 'desc' }, limit });
    return keys.map(toApiKeyRecord);
  }

  async countActiveByUser(userId: number, kind: ApiKeyKind, em: EntityManager = this.db.em()): Promise<number> {
    return em.count(ApiKey, { user: userId, kind, revokedAt: null });
  }

  /** Revokes a live key; with ownerId, only that user's. Returns false when nothing was revoked. */
  async revoke(id: number, at: Date, ownerId?: number, em: EntityManager = this.db.em()): Promise<boolean> {
    const where = { id, revokedAt: null, ...(ownerId === undefined ? {} : { user: ownerId }) };
    const count = await em.nativeUpdate(ApiKey, where, { revokedAt: at });
    return count > 0;
  }

  async touchLastUsed(id: number, at: Date): Promise<void> {
    await this.db.em().nativeUpdate(ApiKey, { id }, { lastUsedAt: at });
  }
}

function toApiKeyRecord(key: InferEntity<typeof ApiKey>): ApiKeyRecord {
  return {
    id: key.id,
    userId: key.user,
    kind: key.kind,
    label: key.label ?? null,
    keyHash: key.keyHash,
    keyPrefix: key.keyPrefix,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt ?? null,
    revokedAt: key.revokedAt ?? null,
  };
}
