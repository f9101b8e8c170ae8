import type * as v from 'valibot';

/** Which credentials a route accepts (docs/design/CONTRACT.md / spec "Authentication"); [] means anonymous. */
export type Credential = 'session' | 'premium' | 'admin' | 'plugin';
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
type AnySchema = v.GenericSchema;

/**
 * One row of the wire contract: the express routers are bound from these and the OpenAPI
 * document is generated from them, so the two cannot drift apart.
 */
export interface RouteContract<
  P extends AnySchema | undefined = AnySchema | undefined,
  Q extends AnySchema | undefined = AnySchema | undefined,
  B extends AnySchema | undefined = AnySchema | undefined,
> {
  operationId: string;
  method: HttpMethod;
  /** Express-style path (`/api/lobbies/:code`). */
  path: string;
  tag: string;
  summary: string;
  /** A paragraph for people and client generators: what the operation does, its rules and failures. */
  description?: string;
  /** An example request body, shown in the OpenAPI document. */
  bodyExample?: unknown;
  auth: Credential[];
  /**
   * The route declares no credential (`auth: []`) yet answers for a session when one is
   * presented: the credential step resolves it, with the CSRF rule of every session state change.
   */
  optionalSession?: boolean;
  /** A role the credential's account must hold beyond being valid (403 otherwise). */
  role?: 'admin' | 'premium';
  params?: P;
  query?: Q;
  body?: B;
  /** The request body's media type when it is not JSON (`multipart/form-data` for uploads). */
  bodyContentType?: string;
  success: { status: number; schema?: AnySchema; description?: string; contentType?: string };
  /** Other successful answers (a 202 when a change waits for an approval), documented beside `success`. */
  alsoSuccess?: Array<{ status: number; schema?: AnySchema; description: string }>;
  errors: number[];
  /** Public reads carry `Cache-Control: public, max-age=30`. */
  publicCache?: boolean;
}

export function defineRoute<
  P extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
>(route: RouteContract<P, Q, B>): RouteContract<P, Q, B> {
  return route;
}

/**
 * How a tag's routes are reached, spread into each route: by anyone, with a session, or as an
 * admin (an admin's session or an admin key, and the admin role).
 */
export function tagAccess(tag: string) {
  return {
    anyone: { tag, auth: [] as Credential[] },
    session: { tag, auth: ['session'] as Credential[] },
    admin: { tag, auth: ['session', 'admin'] as Credential[], role: 'admin' as const },
  };
}

export type ParamsOf<R> = R extends RouteContract<infer P, any, any> ? (P extends AnySchema ? v.InferOutput<P> : Record<string, never>) : never;
export type QueryOf<R> = R extends RouteContract<any, infer Q, any> ? (Q extends AnySchema ? v.InferOutput<Q> : Record<string, never>) : never;
export type BodyOf<R> = R extends RouteContract<any, any, infer B> ? (B extends AnySchema ? v.InferOutput<B> : Record<string, never>) : never;
