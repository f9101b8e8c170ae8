import type * as v from 'valibot';
import { NoBody, parseInput } from '../../schema/parse-input';
import type { BodyOf, ParamsOf, QueryOf, RouteContract } from '../../schema/route-contract';
import { HttpError } from './http-refusal';

/** Parses one part of a request with the shared input parse; a path that does not parse names no resource (404). */
export function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown, part: 'body' | 'query' | 'path'): v.InferOutput<S> {
  const parsed = parseInput(schema, input, part);
  if (parsed.ok) return parsed.value;
  if (part === 'path') throw new HttpError(404, 'not found');
  throw new HttpError(400, parsed.message);
}

/**
 * A request's path, query and body parsed by its route contract: the one input parse of both REST
 * binders (express and native). Every body is checked, declared or not: `[]` or `"x"` to a
 * bodyless route is as wrong as to any other.
 */
export function parseRouteInput<R extends RouteContract>(
  route: R,
  raw: { params: unknown; query: unknown; body: unknown },
): { params: ParamsOf<R>; query: QueryOf<R>; body: BodyOf<R> } {
  return {
    params: (route.params ? parseOrThrow(route.params, raw.params, 'path') : {}) as ParamsOf<R>,
    query: (route.query ? parseOrThrow(route.query, raw.query, 'query') : {}) as QueryOf<R>,
    // A body of another media type (a streamed multipart upload) is its door's to read.
    body: (route.bodyContentType ? raw.body : parseOrThrow(route.body ?? NoBody, raw.body, 'body')) as BodyOf<R>,
  };
}
