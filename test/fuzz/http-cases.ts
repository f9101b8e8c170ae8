import fc from 'fast-check';
import { hostileJson, pathValue, queryValue } from './hostile-values';

export interface FuzzContext {
  url: string;
  /** Session cookies of an admin and of a member (a case may also send none). */
  cookies: string[];
  /** Values the server knows, so some cases get past the 404 to the rules behind it. */
  known: { code: string; userId: string; platformId: string };
}

export interface Operation {
  method: string;
  /** The OpenAPI path, `{name}` for each parameter. */
  template: string;
  pathParams: string[];
  queryParams: string[];
  /** The declared JSON body's properties; null when the operation takes no JSON body. */
  bodyProperties: string[] | null;
}

export interface HttpCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Operations that would end the fuzzer's own sessions: logging out is one GET with nothing to
 * parse (its cross-site rule has its own tests).
 */
const SESSION_ENDING = new Set(['get /auth/logout']);

type OpenApiOperation = {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
};

/** Every operation of an OpenAPI 3.1 document (the server's own /openapi.json). */
export function operationsOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (SESSION_ENDING.has(`${method} ${template}`)) continue;
      const parameters = operation.parameters ?? [];
      const json = operation.requestBody?.content['application/json'];
      operations.push({
        method,
        template,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        bodyProperties: json ? Object.keys(json.schema?.properties ?? {}) : null,
      });
    }
  }
  return operations;
}

/** A body for an operation: shaped like the declared one with hostile values, or not shaped at all. */
function bodyFor(operation: Operation): fc.Arbitrary<{ text?: string; type?: string }> {
  const declared = operation.bodyProperties ?? [];
  const shaped = fc
    .record(Object.fromEntries([...declared, 'extra'].map((name) => [name, hostileJson])), { requiredKeys: [] })
    .map((value) => JSON.stringify(value));
  const json = (text: fc.Arbitrary<string>) => text.map((t) => ({ text: t, type: 'application/json' }));
  return fc.oneof(
    { weight: 40, arbitrary: json(shaped) },
    { weight: 20, arbitrary: json(hostileJson.map((value) => JSON.stringify(value) ?? 'null')) },
    {
      weight: 10,
      arbitrary: json(fc.constantFrom('{"a":', '{"a":1}}', '\u0000', 'undefined', '{"a":1,"a":2}', "{'a':1}", '[', '"unterminated', '{"__proto__":{"is_admin":true}}', '{"constructor":{"prototype":{"x":1}}}')),
    },
    { weight: 10, arbitrary: fc.record({ text: shaped, type: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json-seq', 'application/jsonx') }) },
    { weight: 10, arbitrary: fc.constant({}) },
    // Near and over the 1 MB body limit: rare, they are slow to send.
    { weight: 1, arbitrary: fc.constantFrom(900_000, 1_100_000).map((n) => ({ text: JSON.stringify({ blob: 'x'.repeat(n) }), type: 'application/json' })) },
  );
}

function caseFor(operation: Operation, context: FuzzContext): fc.Arbitrary<HttpCase> {
  const known = [context.known.code, context.known.userId, context.known.platformId];
  const params = fc.tuple(...operation.pathParams.map(() => pathValue(known)));
  const query = fc.array(
    fc.tuple(fc.oneof(fc.constantFrom(...(operation.queryParams.length ? operation.queryParams : ['q'])), fc.constantFrom('x', 'limit', 'page', 'api_key', '__proto__')), queryValue),
    { maxLength: 4 },
  );
  type Headers = Record<string, string>;
  const credential: fc.Arbitrary<Headers> = fc.oneof(
    fc.constantFrom(...context.cookies).map((cookie): Headers => ({ cookie })),
    fc.constant<Headers>({}),
    fc.constantFrom<Headers>({ cookie: 'league_session=forged.value' }, { authorization: `Bearer svc_pk_${'A'.repeat(43)}` }, { authorization: 'bearer' }),
  );
  const origin: fc.Arbitrary<Headers> = fc.oneof(
    { weight: 4, arbitrary: fc.constant<Headers>({}) },
    { weight: 1, arbitrary: fc.constantFrom<Headers>({ origin: 'https://evil.example' }, { origin: 'null' }, { referer: 'not a url' }) },
  );
  return fc.record({ params, query, body: bodyFor(operation), credential, origin }).map(({ params, query, body, credential, origin }) => {
    let path = operation.template;
    operation.pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, params[i])));
    if (query.length > 0) path += `?${query.map(([k, v]) => `${k}=${v}`).join('&')}`;
    const sendsBody = operation.method !== 'get' && operation.method !== 'head';
    const headers: Record<string, string> = { ...credential, ...origin };
    if (sendsBody && body.type) headers['content-type'] = body.type;
    return { method: operation.method, path, headers, body: sendsBody ? body.text : undefined };
  });
}

/** One generated request, for one of the operations. */
export function httpCase(operations: Operation[], context: FuzzContext): fc.Arbitrary<HttpCase> {
  return fc.oneof(...operations.map((operation) => caseFor(operation, context)));
}
