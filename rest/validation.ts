import type * as v from 'valibot';
import { parseInput } from '../schema/parse-input';
import { HttpError } from './http-error';

/** Parses one part of a request with the shared input parse; a path that does not parse names no resource (404). */
export function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown, part: 'body' | 'query' | 'path'): v.InferOutput<S> {
  const parsed = parseInput(schema, input, part);
  if (parsed.ok) return parsed.value;
  if (part === 'path') throw new HttpError(404, 'not found');
  throw new HttpError(400, parsed.message);
}
