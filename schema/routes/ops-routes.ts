import * as v from 'valibot';
import { defineRoute } from '../route-contract';

const tag = 'Operations';

export const opsRoutes = {
  healthz: defineRoute({
    operationId: 'healthz', method: 'get', path: '/healthz', tag, auth: [],
    summary: 'The process is up',
    description:
      'Liveness: answers 200 while the process serves HTTP, whatever its stores do. For container and load-balancer health checks that should restart a dead process only.',
    success: { status: 200, schema: v.object({ ok: v.boolean() }) }, errors: [],
  }),
  readyz: defineRoute({
    operationId: 'readyz', method: 'get', path: '/readyz', tag, auth: [],
    summary: 'The database and the live store answer (503 otherwise)',
    description:
      'Readiness: 200 when the database and the live store both answer, 503 otherwise; docker-compose and load balancers route traffic by it.',
    success: { status: 200, schema: v.object({ ok: v.boolean(), database: v.boolean(), live_store: v.boolean() }) },
    errors: [503],
  }),
};
