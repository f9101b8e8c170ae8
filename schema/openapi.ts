import { toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { bodyComponents, responseComponents } from './components';
import type { Credential, RouteContract } from './route-contract';

type Json = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request (the message names the field)',
  401: 'No valid credential',
  402: 'Payment or points required',
  403: 'Credential valid but not allowed',
  404: 'Not found',
  409: 'State conflict',
  410: 'Gone',
  413: 'Payload too large',
  429: 'Rate limit exceeded (Retry-After header)',
  502: 'Upstream provider failure',
  503: 'Not ready or not configured',
  504: 'Upstream did not answer',
};

const SECURITY: Record<Credential, string> = {
  session: 'sessionCookie',
  premium: 'premiumApiKey',
  admin: 'adminApiKey',
  plugin: 'pluginSecret',
};

const componentRef = ({ referenceId }: { referenceId: string }) => `#/components/schemas/${referenceId}`;

/**
 * Input mode: query strings and bodies are documented as clients send them, before transforms.
 * A registered record (schema/components.ts) becomes a `$ref` wherever it appears.
 */
function conversion(mode: 'input' | 'ignore') {
  const definitions = mode === 'input' ? bodyComponents() : responseComponents();
  return { target: 'draft-2020-12' as const, errorMode: 'ignore' as const, typeMode: mode, definitions, overrideRef: componentRef };
}

function jsonSchema(schema: v.GenericSchema, mode: 'input' | 'ignore'): Json {
  const out = toJsonSchema(schema, conversion(mode)) as Json;
  delete out.$schema;
  delete out.$defs;
  return out;
}

function componentSchemas(): Record<string, Json> {
  return {
    ...(toJsonSchemaDefs(responseComponents(), conversion('ignore')) as Record<string, Json>),
    ...(toJsonSchemaDefs(bodyComponents(), conversion('input')) as Record<string, Json>),
  };
}

function pathParams(route: RouteContract): Json[] {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  return names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

function queryParams(route: RouteContract): Json[] {
  if (!route.query) return [];
  const schema = jsonSchema(route.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, prop]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: prop,
  }));
}

function operation(route: RouteContract): Json {
  const responses: Json = {};
  const success: Json = { description: route.success.description ?? 'Success' };
  if (route.success.schema) {
    success.content = { [route.success.contentType ?? 'application/json']: { schema: jsonSchema(route.success.schema, 'ignore') } };
  }
  if (route.publicCache) success.headers = { 'Cache-Control': { schema: { type: 'string', example: 'public, max-age=30' } } };
  responses[String(route.success.status)] = success;
  for (const other of route.alsoSuccess ?? []) {
    responses[String(other.status)] = {
      description: other.description,
      ...(other.schema ? { content: { 'application/json': { schema: jsonSchema(other.schema, 'ignore') } } } : {}),
    };
  }
  // Every route answers 400 to a malformed request (ambiguous framing, a key in the query string).
  const errors = new Set([...route.errors, 400]);
  if (route.auth.length > 0) errors.add(401);
  if (route.auth.some((c) => c === 'premium' || c === 'admin')) errors.add(429);
  if (route.body) errors.add(400);
  for (const status of [...errors].sort()) {
    responses[String(status)] = {
      description: STATUS_TEXT[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const op: Json = {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    parameters: [...pathParams(route), ...queryParams(route)],
    responses,
    security: route.auth.length === 0 ? [] : route.auth.map((c) => ({ [SECURITY[c]]: [] })),
  };
  if (route.role) op['x-required-role'] = route.role;
  if (route.body) {
    const media: Json = { schema: jsonSchema(route.body, 'input') };
    if (route.bodyExample !== undefined) media.example = route.bodyExample;
    op.requestBody = { required: true, content: { [route.bodyContentType ?? 'application/json']: media } };
  }
  return op;
}

const DESCRIPTION = [
  'Pickup-game league API. Every error body is `{error}`; unknown JSON fields are ignored; wrong types,',
  'missing fields and over-limit strings are 400 naming the field; request bodies over 1 MB are 413.',
  '',
  'Credentials: the `league_session` cookie (HttpOnly, SameSite=Lax, 30 days idle) set by the login flow;',
  '`Authorization: Bearer svc_pk_…` (premium) or `svc_ak_…` (admin) on the routes that accept keys;',
  '`X-SVC-Plugin-Secret` for plugin routes. A key in a query string is refused with 400 on every route.',
  'Keys are limited to 60 requests per sliding minute (429 with Retry-After).',
  '',
  'Realtime: socket.io at `/socket.io/` (default namespace). Client events: `lobby:subscribe {code, patches?}` (ack',
  '`{lobby}` or `{error, status}`), `lobby:unsubscribe {code}`, `lobbies:subscribe` (ack `{lobbies}`),',
  '`lobby:command {code, type, ...body}` with `type` a lobby route\'s last path segment, or `cancel` for the',
  'DELETE (ack `{ok: true, status, ...body}` or `{error, status}`: the REST status and body, the same credential',
  'check and key audit as the route). Server events: `lobby:update {code, version, lobby}`,',
  '`lobby:patch {code, version, base_version, ops}` (to `patches: true` subscribers instead of updates: RFC 6902',
  '`add`/`remove`/`replace` ops turning the LobbyDetail at `base_version` = `version` - 1 into the one at `version`;',
  'a whole `lobby:update` comes instead when the server cannot vouch for the base), `lobby:chat {code, message}`,',
  '`lobbies:update {lobbies}`. After the subscribe ack a subscriber gets exactly the versions above its snapshot, each',
  'once, in order; a version gap (a patch whose base is not the version held) means: subscribe again.',
  'The handshake authenticates with the session cookie or `auth: {token: "svc_pk_…"}`; anonymous and',
  'key-authenticated sockets may subscribe, and their commands answer what REST answers them (lobby commands',
  'are session routes: 401).',
].join('\n');

export function buildOpenApiDocument(routes: RouteContract[], serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    // Express routes match with or without a trailing slash; the document names the path without it.
    const path = route.path.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
    paths[path] ??= {};
    paths[path][route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Community League Platform API',
      version: 'v1',
      description: DESCRIPTION,
      // package.json: private, no licence granted.
      license: { name: 'Proprietary (UNLICENSED)', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'league_session' },
        premiumApiKey: { type: 'http', scheme: 'bearer', description: 'svc_pk_ + 43 base64url characters' },
        adminApiKey: { type: 'http', scheme: 'bearer', description: 'svc_ak_ + 43 base64url characters; the account must be admin' },
        pluginSecret: { type: 'apiKey', in: 'header', name: 'X-SVC-Plugin-Secret' },
      },
    },
  };
}
