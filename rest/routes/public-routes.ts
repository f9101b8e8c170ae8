import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { Router, type Response } from 'express';
import * as v from 'valibot';
import { describeIssues } from '../../schema/issue-message';
import type { RouteContract } from '../../schema/route-contract';
import { publicRoutes } from '../../schema/routes/public-routes';
import type { PublicReads } from '../../src/public-reads/public-reads';
import type { CachedAnswer } from '../../src/public-reads/serialized-cache';
import { endAnswer, getAndHead, pathParameterReader, type UwsApp } from '../../realtime/uws-host';
import { framingRefusal, sendRefusal } from '../body-size-guard';
import { toHttpError } from '../error-mapping';
import { HttpError } from '../http-error';
import { statusLine } from '../status-line';
import { bindRoute, RESPONDED, type Authenticate } from '../route-binder';

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

export function publicRouter(reads: PublicReads, authenticate: Authenticate<unknown>): Router {
  const router = Router();
  for (const [route, answer] of answers) {
    bindRoute(router, route, authenticate, async ({ params, query, res }) => {
      sendCached(res, await answer(reads, { params, query }));
      return RESPONDED;
    });
  }
  return router;
}

export function sendCached(res: Response, answer: CachedAnswer): void {
  res.status(answer.status).setHeader('Content-Type', 'application/json; charset=utf-8');
  if (answer.status === 200) res.setHeader('Cache-Control', CACHE_CONTROL);
  res.end(answer.bytes);
}

function writeAnswer(res: HttpResponse, answer: CachedAnswer, head: boolean): void {
  res.cork(() => {
    res.writeStatus(statusLine(answer.status)).writeHeader('content-type', 'application/json; charset=utf-8');
    if (answer.status === 200) res.writeHeader('cache-control', CACHE_CONTROL);
    endAnswer(res, answer.bytes, head);
  });
}

type RawParser = (req: HttpRequest) => { params: unknown; query: unknown };

/** Built once per route, so a request costs only what its own path and query need. */
function rawParser(route: RouteContract): RawParser {
  const pathParameters = pathParameterReader(route.path);
  const { params: paramsSchema, query: querySchema } = route;
  return (req) => {
    let params: unknown = {};
    if (paramsSchema) {
      const parsed = v.safeParse(paramsSchema, pathParameters(req));
      if (!parsed.success) throw new HttpError(404, 'not found');
      params = parsed.output;
    }
    let query: unknown = {};
    if (querySchema) {
      const parsed = v.safeParse(querySchema, Object.fromEntries(new URLSearchParams(req.getQuery() ?? '')));
      if (!parsed.success) throw new HttpError(400, describeIssues(parsed.issues, 'query'));
      query = parsed.output;
    }
    return { params, query };
  };
}

/**
 * The public reads on native uWS routes, more specific than the express catch-all and so served
 * first. A fresh answer is written synchronously from the cache, without a promise or a parse of
 * anything but the query string. Measured: see `npm run bench`.
 */
export function installRawPublicRoutes(app: UwsApp, reads: PublicReads, onError: (error: unknown) => void): void {
  for (const [route, answer] of answers) {
    const parse = rawParser(route);
    getAndHead(app, route.path, (res, req, head) => {
      const refusal = framingRefusal(req);
      if (refusal) return sendRefusal(res, refusal);
      let input: { params: unknown; query: unknown };
      try {
        input = parse(req);
      } catch (error) {
        const e = error as HttpError;
        writeAnswer(res, { status: e.status, bytes: Buffer.from(JSON.stringify({ error: e.message })), builtAt: 0 }, head);
        return;
      }
      const pending = answer(reads, input as { params: any; query: any });
      if (!(pending instanceof Promise)) {
        writeAnswer(res, pending, head);
        return;
      }
      let aborted = false;
      res.onAborted(() => {
        aborted = true;
      });
      pending.then(
        (result) => {
          if (!aborted) writeAnswer(res, result, head);
        },
        (error) => {
          // The one error mapping, as on every other route: a database that cannot answer is 503 with Retry-After.
          const mapped = toHttpError(error);
          if (!mapped || mapped.status >= 500) onError(error);
          if (aborted) return;
          if (!mapped) return writeAnswer(res, { status: 500, bytes: Buffer.from('{"error":"internal error"}'), builtAt: 0 }, head);
          res.cork(() => {
            res.writeStatus(statusLine(mapped.status)).writeHeader('content-type', 'application/json; charset=utf-8');
            for (const [name, value] of Object.entries(mapped.headers)) res.writeHeader(name, value);
            endAnswer(res, Buffer.from(JSON.stringify({ error: mapped.message })), head);
          });
        },
      );
    });
  }
}
