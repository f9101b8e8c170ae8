import type { RouteContract } from '../../schema/route-contract';
import { allRoutes } from '../../schema/routes';
import { siteRoutes } from '../../schema/routes/site-routes';
import type { DoorBindings, DoorKind } from '../../src/door/door-bindings';
import { KeepAliveConnection, type RawResponse } from '../support/raw-http';

/** One route as one door serves it. */
export interface DoorCase {
  name: string;
  route: RouteContract;
  door: DoorKind;
  /** The path that reaches this door: a route also bound natively is reached in express by its trailing-slash spelling. */
  path: string;
}

/**
 * Every route of the contracts through every door the server bound it on (the binders' own record,
 * src/door/door-bindings.ts). Path parameters are `1`: the checks here come before the path is parsed.
 */
export function doorCases(bindings: DoorBindings): DoorCase[] {
  return allRoutes.flatMap((route) => {
    const doors = bindings.doorsOf(route);
    const concrete = route.path.replace(/:(\w+)/g, '1');
    return doors.map((door) => ({
      name: `${route.method.toUpperCase()} ${route.path} (${door})`,
      route,
      door,
      // uWS matches the exact spelling only; express (non-strict) also takes a trailing slash.
      path: door === 'express' && doors.includes('native') ? `${concrete}/` : concrete,
    }));
  });
}

/**
 * Requests outside the contracts of the API: the site's pages and assets and the API's document
 * (schema/routes/site-routes.ts), and a path no route matches; each with the status it answers
 * when nothing is wrong. They pass the one exchange too.
 */
export const sitePaths: Array<{ name: string; request: DoorRequest; status: number }> = [
  ...Object.values(siteRoutes).map((route) => {
    const target = route.path.replace(/:(\w+)/g, '1');
    return { name: `GET ${target}`, request: { method: 'GET', target }, status: 200 };
  }),
  { name: 'HEAD /assets/app.js', request: { method: 'HEAD', target: '/assets/app.js' }, status: 200 },
  { name: 'GET /no/such/path', request: { method: 'GET', target: '/no/such/path' }, status: 404 },
  { name: 'POST /no/such/path', request: { method: 'POST', target: '/no/such/path', body: { contentType: 'application/json', text: '{}' } }, status: 404 },
];

export const isSessionStateChange = (route: RouteContract) => route.method !== 'get' && (route.auth.includes('session') || route.optionalSession === true);
export const takesBody = (route: RouteContract) => route.body !== undefined || route.bodyContentType !== undefined;

/** A body the route's content type accepts as a body (`{}`, or an empty multipart form), or a malformed one. */
export function bodyFor(route: RouteContract, malformed = false): { contentType: string; text: string } | undefined {
  if (route.bodyContentType?.startsWith('multipart/')) {
    return { contentType: 'multipart/form-data; boundary=door', text: malformed ? '--door\r\nContent-Disposition: form-data; name="file"; filename="m.bsp"\r\n\r\nVBSP' : '--door--\r\n' };
  }
  if (malformed) return { contentType: 'application/json', text: '{"unterminated' };
  return route.method === 'get' ? undefined : { contentType: 'application/json', text: '{}' };
}

export interface DoorRequest {
  method: string;
  target: string;
  headers?: Record<string, string>;
  body?: { contentType: string; text: string };
}

export interface Outcome {
  status: number;
  headers: Headers;
  body: unknown;
  ms: number;
}

/** Sends one request with fetch (no redirects followed) and reads the whole answer. */
export async function send(base: string, request: DoorRequest): Promise<Outcome> {
  const started = performance.now();
  const headers: Record<string, string> = { ...request.headers };
  if (request.body) headers['content-type'] = request.body.contentType;
  const res = await fetch(`${base}${request.target}`, { method: request.method, headers, body: request.body?.text, redirect: 'manual' });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a redirect, a page): compared as text.
  }
  return { status: res.status, headers: res.headers, body, ms: performance.now() - started };
}

/** Runs `work` over every item, at most `width` at a time, keeping the order of the results. */
export async function inParallel<T, U>(items: T[], width: number, work: (item: T) => Promise<U>): Promise<U[]> {
  const results: U[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]);
      }
    }),
  );
  return results;
}

/** The request as raw HTTP/1.1, for a kept-alive connection opened beforehand. */
export function rawRequest(request: DoorRequest): string {
  const lines = [`${request.method} ${request.target} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`${name}: ${value}`);
  if (request.body) lines.push(`Content-Type: ${request.body.contentType}`, `Content-Length: ${Buffer.byteLength(request.body.text)}`);
  return `${lines.join('\r\n')}\r\n\r\n${request.body?.text ?? ''}`;
}

/** Sends a request on a connection opened before, reads its answer, and whether the server then closed the connection (within `closeMs`). */
export async function sendOnKept(connection: KeepAliveConnection, request: DoorRequest, closeMs = 2_000): Promise<{ response: RawResponse | Error; closed: boolean }> {
  const response = await connection.exchange(rawRequest(request)).catch((error: Error) => error);
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([connection.whenClosed().then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), closeMs)))]);
  clearTimeout(timer);
  return { response, closed };
}
