import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ApiKey } from './api-key';

/**
 * One request made with an API key, read newest first per key. The (key_id, id) index serves that
 * by scanning backwards. It is not declared `id desc`: MikroORM 7.2.1 reads the index back from
 * Postgres by matching column names as substrings ("id" inside "key_id"), loses the DESC, and
 * would report a schema difference forever.
 */
export const ApiKeyAudit = defineEntity({
  name: 'ApiKeyAudit',
  tableName: 'api_key_audit',
  properties: {
    id: p.integer().primary(),
    key: () => p.manyToOne(ApiKey).mapToPk().deleteRule('cascade'),
    endpoint: p.string().length(255),
    method: p.string().length(10),
    clientHash: p.string().length(64),
    status: p.integer(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
  indexes: [{ name: 'api_key_audit_key_id_id_index', properties: ['key', 'id'] }],
});
export type ApiKeyAuditEntity = InferEntity<typeof ApiKeyAudit>;
