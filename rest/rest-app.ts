import type express from 'express';
import type { Router } from 'express';
import expressify from 'uwebsockets-express';
import type { UwsApp } from '../host/uws-host';
import type { DoorRoutes } from '../src/door/door-routes';
import { READ_BODY_MAX_MS } from '../host/body-size-guard';
import { errorHandler, notFound } from './middleware/error-handler';
import { uwsResponseFixes } from './middleware/uws-response-fixes';
import { contractsBoundOn, setExpressDoorDeps, type ExpressDoorDeps } from './route-binder';

export interface RestAppOptions {
  /** The exchange's deps (in-flight, logger, observers, client address) every bound route runs with. */
  door: ExpressDoorDeps;
  /** Routers in mount order (express routers the rest/ binders built); each is built by the composition root with its dependencies. */
  routers: DoorRoutes[];
}

/**
 * The express app, run by uwebsockets-express on the shared uWS app as its catch-all route. Every
 * bound route runs the one exchange (src/door/exchange.ts); an unknown path answers through
 * `notFound`, an error raised before a route ran through `errorHandler`: both answer `{error}`.
 */
export function mountRestApp(uws: UwsApp, options: RestAppOptions): express.Application {
  const app = expressify(uws, { readBodyMaxTime: READ_BODY_MAX_MS });
  app.disable('x-powered-by');
  app.set('etag', false);
  setExpressDoorDeps(app, options.door);
  app.use(uwsResponseFixes);
  // The composition root hands them on without naming express (src/door/door-routes.ts).
  const routers = options.routers as Router[];
  for (const router of routers) app.use(router);
  for (const route of contractsBoundOn(routers)) options.door.bindings?.bound(route, 'express');
  app.use(notFound);
  app.use(errorHandler());
  return app;
}
