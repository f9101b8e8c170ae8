import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/** One entry a client sent to POST /api/logs/client (migration 0013); written and read with SQL in client-log-repository.ts. */
export const ClientLog = defineEntity({
  name: 'ClientLog',
  tableName: 'client_logs',
  properties: {
    id: p.bigint('number').primary(),
    level: p.string().length(8),
    source: p.string().length(8).nullable(),
    message: p.text(),
    context: p.json().nullable(),
    at: p.datetime(),
    receivedAt: p.datetime().defaultRaw('now()').index('client_logs_received_at_index'),
    user: () => p.manyToOne(User).mapToPk().nullable().deleteRule('set null').index('client_logs_user_id_index'),
    addressHash: p.string().length(64),
    userAgent: p.string().length(512).nullable(),
  },
});
export type ClientLogEntity = InferEntity<typeof ClientLog>;
