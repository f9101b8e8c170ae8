import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/** An API key. Only the SHA-256 of the raw key is kept; key_prefix is for recognising it in lists. */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).mapToPk().index('api_keys_user_id_index'),
    kind: p.enum(['premium', 'admin'] as const),
    label: p.string().length(100).nullable(),
    keyHash: p.string().length(64).unique('api_keys_key_hash_unique'),
    keyPrefix: p.string().length(12),
    createdAt: p.datetime().defaultRaw('now()'),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export type ApiKeyEntity = InferEntity<typeof ApiKey>;
