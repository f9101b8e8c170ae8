import { createHash, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import { MAX_CLIENT_LOG_BODY_BYTES, type ClientLogView } from '../../schema/client-logs';
import { observabilityRoutes } from '../../schema/routes/observability-routes';
import type { ClientLogRecord, ClientLogRepository } from '../../src/db/client-log-repository';
import type { PresentedRequest } from '../../src/door/presented-request';
import type { Authenticator } from '../../src/identity/authenticator';
import type { Caller } from '../../src/identity/caller';
import type { ClientLogIntake, ClientLogSender } from '../../src/observability/client-log-intake';
import type { Metrics } from '../../src/observability/metrics';
import type { UwsApp } from '../../host/uws-host';
import { trustedProxyMatcher } from '../client-address';
import { HttpError } from '../http-error';
import { bindNativeRoute, type NativeRouteDeps } from '../native-route-binder';
import { bindRoute, RESPONDED, type Authenticate } from '../route-binder';

export interface ClientLogRouteDeps extends NativeRouteDeps<Caller> {
  intake: ClientLogIntake;
  /** The credential step's session of this site's pages only (the authenticator's). */
  sameSiteSession: Authenticator['sameSiteSession'];
}

/**
 * POST /api/logs/client on a native uWS route: the one JSON route that also reads text/plain
 * (sendBeacon) and reads at most 64 KB, which the express pipeline's body handling (every route
 * JSON only, 1 MB) does not allow per route. Same steps as every native route; its "caller" is
 * the sender: the session's user (only from this site's pages: another site's beacon must not
 * spend a user's budget or write in their name), the client address and the user agent, after
 * the rate limits.
 */
export function installClientLogRoute(app: UwsApp, deps: ClientLogRouteDeps): void {
  bindNativeRoute<typeof observabilityRoutes.submitClientLogs, ClientLogSender>(
    app,
    observabilityRoutes.submitClientLogs,
    {
      ...deps,
      authenticate: async (req, route, trail) => {
        await deps.authenticate(req, route, trail);
        const caller = await deps.sameSiteSession(req, trail);
        const sender: ClientLogSender = { userId: caller.user?.id ?? null, address: req.clientAddress, userAgent: req.userAgent };
        await deps.intake.admit(sender);
        return sender;
      },
    },
    async ({ body, caller }) => {
      await deps.intake.store(body.entries, caller);
      return undefined;
    },
    { maxBytes: MAX_CLIENT_LOG_BODY_BYTES, textPlainJson: true },
  );
}

export interface ObservabilityRouterDeps {
  authenticate: Authenticate<Caller>;
  clientLogs: Pick<ClientLogRepository, 'list'>;
  metrics: Metrics;
  /** METRICS_TOKEN; unset: loopback clients only. */
  metricsToken: string | undefined;
}

/** The admin read of client logs, and /metrics. */
export function observabilityRouter(deps: ObservabilityRouterDeps): Router {
  const router = Router();

  bindRoute(router, observabilityRoutes.listClientLogs, deps.authenticate, async ({ query }) => {
    const { entries, total } = await deps.clientLogs.list({
      level: query.level, source: query.source, since: query.since === undefined ? undefined : new Date(query.since), q: query.q, page: query.page, limit: query.limit,
    });
    return { entries: entries.map(toClientLogView), total, page: query.page, limit: query.limit };
  });

  bindRoute(router, observabilityRoutes.metrics, metricsAccess(deps.metricsToken), async ({ res }) => {
    const text = await deps.metrics.text();
    res.status(200).setHeader('Content-Type', deps.metrics.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(text);
    return RESPONDED;
  });

  return router;
}

const isLoopback = trustedProxyMatcher(['127.0.0.0/8', '::1']);
const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** With a token: the Bearer must match it (compared in constant time). Without: loopback clients only. */
function metricsAccess(token: string | undefined): Authenticate<null> {
  const expected = token === undefined ? undefined : digest(token);
  return async (req: PresentedRequest) => {
    if (expected) {
      const presented = /^Bearer\s+(\S+)\s*$/i.exec(req.authorization ?? '')?.[1];
      if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
        throw new HttpError(401, 'metrics need Authorization: Bearer with METRICS_TOKEN', { 'WWW-Authenticate': 'Bearer' });
      }
      return null;
    }
    if (!isLoopback(req.clientAddress)) throw new HttpError(403, 'metrics answer loopback clients only unless METRICS_TOKEN is set');
    return null;
  };
}

export function toClientLogView(record: ClientLogRecord): ClientLogView {
  return {
    id: record.id,
    level: record.level as ClientLogView['level'],
    message: record.message,
    at: record.at.toISOString(),
    source: record.source as ClientLogView['source'],
    context: record.context,
    received_at: record.receivedAt.toISOString(),
    user_id: record.userId,
    address_hash: record.addressHash,
    user_agent: record.userAgent,
  };
}
