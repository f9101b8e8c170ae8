import type express from 'express';
import type { Router } from 'express';
import expressify from 'uwebsockets-express';
import type { UwsApp } from '../realtime/uws-host';
import type { Logger } from 'pino';
import { READ_BODY_MAX_MS } from './body-size-guard';
import { errorHandler, notFound } from './middleware/error-handler';
import { jsonBody } from './middleware/json-body';
import { uwsResponseFixes } from './middleware/uws-response-fixes';

export interface RestAppOptions {
  logger: Logger;
  /** Routers in mount order; each is built by the composition root with its dependencies. */
  routers: Router[];
  /** Runs first on every request (presence, request logging...). */
  before?: express.RequestHandler[];
}

/**
 * The express app, run by uwebsockets-express on the shared uWS app as its catch-all route. Every
 * error leaves through `errorHandler`, every unknown path through `notFound`: both answer `{error}`.
 */
export function mountRestApp(uws: UwsApp, options: RestAppOptions): express.Application {
  const app = expressify(uws, { readBodyMaxTime: READ_BODY_MAX_MS });
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(uwsResponseFixes);
  app.use(jsonBody);
  for (const handler of options.before ?? []) app.use(handler);
  for (const router of options.routers) app.use(router);
  app.use(notFound);
  app.use(errorHandler(options.logger));
  return app;
}
