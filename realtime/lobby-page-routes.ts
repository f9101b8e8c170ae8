import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RouteContract } from '../schema/route-contract';
import { siteRoutes } from '../schema/routes/site-routes';
import { sendRefusal } from '../host/body-size-guard';
import { NativeResponse, nativeFramingRefusal, presentedOfNative, readNativeRequest } from '../host/native-door';
import { getAndHead, type UwsApp } from '../host/uws-host';
import { NO_CREDENTIAL, PreparedAnswer, runExchange, type ExchangeDeps } from '../src/door/exchange';

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  /** What every answer of it carries, 200 or 304. */
  headers: Record<string, string>;
}

export interface LobbyPageDeps extends ExchangeDeps {
  addressOf: (peer: string, forwardedFor: string | undefined) => string;
}

const NOTHING = { params: {}, query: {}, body: {} };

const PUBLIC_DIR = new URL('./public/', import.meta.url);

const SECURITY_HEADERS: Array<[string, string]> = [
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'same-origin'],
  [
    'content-security-policy',
    "default-src 'self'; img-src 'self' https: data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  ],
];

/**
 * The live lobby page as native uWS routes: `/` (the open lobbies) and `/lobby/<code>` share one
 * HTML shell; the script decides what to show from the path. The three files are read once at
 * start-up, so serving them costs no disk access. Registered before the REST app: these exact
 * and parametric routes win over express's catch-all in uWS's router. Each request passes the one
 * exchange (src/door/exchange.ts): a key in the URL is 401, a shutdown 503, as on every route.
 */
export function installLobbyPageRoutes(app: UwsApp, deps: LobbyPageDeps): void {
  const page = load('index.html', 'text/html; charset=utf-8');
  const routes: Array<[RouteContract, Asset]> = [
    [siteRoutes.lobbyList, page],
    [siteRoutes.lobbyPage, page],
    [siteRoutes.appScript, load('app.js', 'text/javascript; charset=utf-8')],
    [siteRoutes.playScript, load('play.js', 'text/javascript; charset=utf-8')],
    [siteRoutes.stylesheet, load('style.css', 'text/css; charset=utf-8')],
  ];
  for (const [route, asset] of routes) {
    const fresh = new PreparedAnswer(200, asset.body, { ...asset.headers, 'content-type': asset.type });
    const notModified = new PreparedAnswer(304, Buffer.alloc(0), asset.headers);
    deps.bindings?.bound(route, 'native');
    getAndHead(app, route.path, (res, req, head) => {
      const request = readNativeRequest(req, res, head ? 'HEAD' : 'GET');
      const refusal = nativeFramingRefusal(request);
      if (refusal) return sendRefusal(res, req, refusal, deps, route.path);
      const answer = request.headers['if-none-match'] === asset.etag ? notModified : fresh;
      void runExchange(
        deps,
        route,
        NO_CREDENTIAL,
        { door: 'http', presented: presentedOfNative(request, deps.addressOf), input: () => NOTHING },
        () => answer,
        new NativeResponse(res, request, head),
      );
    });
  }
}

function load(name: string, type: string): Asset {
  const body = readFileSync(new URL(name, PUBLIC_DIR));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, type, etag, headers: { ...Object.fromEntries(SECURITY_HEADERS), 'cache-control': 'no-cache', etag } };
}
