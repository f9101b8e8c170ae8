import { Router } from 'express';
import { opsRoutes } from '../../schema/routes/ops-routes';
import { bindRoute, RESPONDED, type Authenticate } from '../route-binder';

export interface Readiness {
  /** A check not answered within READY_WITHIN_MS counts as not ready (a silent store must not hold the probe). */
  database(): Promise<boolean>;
  liveStore(): Promise<boolean>;
}

/** Readiness answers within this, ready or not: load balancers probe with short timeouts. */
const READY_WITHIN_MS = 800;

export function opsRouter(readiness: Readiness, authenticate: Authenticate<unknown>): Router {
  const router = Router();
  bindRoute(router, opsRoutes.healthz, authenticate, () => ({ ok: true }));
  bindRoute(router, opsRoutes.readyz, authenticate, async ({ res }) => {
    const [database, liveStore] = await Promise.all([
      bounded(readiness.database()),
      bounded(readiness.liveStore()),
    ]);
    const ok = database && liveStore;
    res.status(ok ? 200 : 503).json({ ok, database, live_store: liveStore });
    return RESPONDED;
  });
  return router;
}

function bounded(check: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READY_WITHIN_MS)));
  return Promise.race([check.catch(() => false), late]).finally(() => clearTimeout(timer));
}
