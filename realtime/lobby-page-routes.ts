import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { framingRefusal, sendRefusal } from '../host/body-size-guard';
import { endAnswer, getAndHead, type UwsApp } from '../host/uws-host';

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

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
 * and parametric routes win over express's catch-all in uWS's router.
 */
export function installLobbyPageRoutes(app: UwsApp): void {
  const page = load('index.html', 'text/html; charset=utf-8');
  const routes: Array<[string, Asset]> = [
    ['/', page],
    ['/lobby/:code', page],
    ['/assets/app.js', load('app.js', 'text/javascript; charset=utf-8')],
    ['/assets/play.js', load('play.js', 'text/javascript; charset=utf-8')],
    ['/assets/style.css', load('style.css', 'text/css; charset=utf-8')],
  ];
  for (const [path, asset] of routes) {
    getAndHead(app, path, (res, req, head) => {
      const refusal = framingRefusal(req);
      if (refusal) return sendRefusal(res, refusal);
      const notModified = req.getHeader('if-none-match') === asset.etag;
      res.cork(() => {
        res.writeStatus(notModified ? '304 Not Modified' : '200 OK');
        for (const [name, value] of SECURITY_HEADERS) res.writeHeader(name, value);
        res.writeHeader('cache-control', 'no-cache');
        res.writeHeader('etag', asset.etag);
        if (notModified) {
          res.endWithoutBody();
          return;
        }
        res.writeHeader('content-type', asset.type);
        endAnswer(res, asset.body, head);
      });
    });
  }
}

function load(name: string, type: string): Asset {
  const body = readFileSync(new URL(name, PUBLIC_DIR));
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}
