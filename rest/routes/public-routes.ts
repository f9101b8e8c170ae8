import { Router } from 'express';
import type { RouteContract } from '../../schema/route-contract';
import { publicRoutes } from '../../schema/routes/public-routes';
import type { PublicReads } from '../../src/public-reads/public-reads';
import type { CachedAnswer } from '../../src/public-reads/serialized-cache';
import { getAndHead, pathParameterReader, type UwsApp } from '../../host/uws-host';
import { PreparedAnswer, runExchange, type ExchangeDeps } from '../../src/door/exchange';
import { sendRefusal } from '../../host/body-size-guard';
import { NativeResponse, nativeFramingRefusal, presentedOfNative, readNativeRequest } from '../../host/native-door';
import { bindRoute, type Authenticate } from '../route-binder';

type Answer = (reads: PublicReads, input: { params: any; query: any }) => CachedAnswer | Promise<CachedAnswer>;

/** One table serves both doors: the raw uWS routes (hot path) and the express routes (same bytes). */
const answers: Array<[RouteContract, Answer]> = [
  [publicRoutes.summary, (r) => r.summary()],
  [publicRoutes.globalStats, (r) => r.globalStats()],
  [publicRoutes.lobbies, (r) => r.lobbies()],
  [publicRoutes.leaderboard, (r) => r.leaderboard()],
  [publicRoutes.matches, (r, { query }) => r.matches(query.limit, query.page)],
  [publicRoutes.match, (r, { params }) => r.match(params.id)],
  [publicRoutes.matchPlayers, (r, { params }) => r.matchPlayers(params.id)],
  [publicRoutes.changelog, (r, { query }) => r.changelog(query.limit)],
  [publicRoutes.announcement, (r) => r.announcement()],
];

const CACHE_CONTROL = 'public, max-age=30';

/** A cached answer as the exchange's prepared answer: the same bytes through every door. */
export function preparedFromCache(answer: CachedAnswer): PreparedAnswer {
  return new PreparedAnswer(answer.status, answer.bytes, answer.status === 200 ? { 'Cache-Control': CACHE_CONTROL } : {});
}

const prepare = (reads: PublicReads, answer: Answer, input: { params: any; query: any }) => {
  const pending = answer(reads, input);
  return pending instanceof Promise ? pending.then(preparedFromCache) : preparedFromCache(pending);
};

export function publicRouter(reads: PublicReads, authenticate: Authenticate<unknown>): Router {
  const router = Router();
  for (const [route, answer] of answers) bindRoute(router, route, authenticate, (input) => prepare(reads, answer, input));
  return router;
}

export interface RawPublicDeps extends ExchangeDeps {
  authenticate: Authenticate<unknown>;
  addressOf: (peer: string, forwardedFor: string | undefined) => string;
}

/**
 * The public reads on native uWS routes, more specific than the express catch-all and so served
 * first, through the one exchange: a key in the URL is 401 and a store that cannot answer is 503
 * with Retry-After, as at every door. A fresh answer is written synchronously from the cache,
 * without a promise or a parse of anything but the query string. Measured: see `npm run bench`.
 */
export function installRawPublicRoutes(app: UwsApp, reads: PublicReads, deps: RawPublicDeps): void {
  for (const [route, answer] of answers) {
    const pathParameters = pathParameterReader(route.path);
    deps.bindings?.bound(route, 'native');
    getAndHead(app, route.path, (res, req, head) => {
      const request = readNativeRequest(req, res, head ? 'HEAD' : 'GET');
      const refusal = nativeFramingRefusal(request);
      if (refusal) return sendRefusal(res, req, refusal, deps, route.path);
      const params = pathParameters(req);
      const query = Object.fromEntries(new URLSearchParams(req.getQuery() ?? ''));
      void runExchange(
        deps,
        route,
        deps.authenticate,
        { door: 'http', presented: presentedOfNative(request, deps.addressOf), input: () => ({ params, query, body: {} }) },
        (input) => prepare(reads, answer, input),
        new NativeResponse(res, request, head),
      );
    });
  }
}
