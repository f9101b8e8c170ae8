import { Router } from 'express';
import { opsRoutes } from '../../schema/routes/ops-routes';
import { bindRoute, RESPONDED, type Authenticate } from '../route-binder';

export interface Readiness {
  database(): Promise<boolean>;
  liveStore(): Promise<boolean>;
}

export function opsRouter(readiness: Readiness, authenticate: Authenticate<unknown>): Router {
  const router = Router();
  bindRoute(router, opsRoutes.healthz, authenticate, () => ({ ok: true }));
  bindRoute(router, opsRoutes.readyz, authenticate, async ({ res }) => {
    const [database, liveStore] = await Promise.all([readiness.database(), readiness.liveStore()]);
    const ok = database && liveStore;
    res.status(ok ? 200 : 503).json({ ok, database, live_store: liveStore });
    return RESPONDED;
  });
  return router;
}
