import * as v from 'valibot';
import { defineRoute } from '../route-contract';

const tag = 'Operations';

export const opsRoutes = {
  healthz: defineRoute({
    operationId: 'healthz', method: 'get', path: '/healthz', tag, auth: [],
    summary: 'The process is up', success: { status: 200, schema: v.object({ ok: v.boolean() }) }, errors: [],
  }),
  readyz: defineRoute({
    operationId: 'readyz', method: 'get', path: '/readyz', tag, auth: [],
    summary: 'The database and the live store answer (503 otherwise)',
    success: { status: 200, schema: v.object({ ok: v.boolean(), database: v.boolean(), live_store: v.boolean() }) },
    errors: [503],
  }),
};
