import * as v from 'valibot';
import { HttpError } from './http-error';

/** Parses one part of a request; the 400 names the field so a client can fix its call. */
export function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown, part: 'body' | 'query' | 'path'): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = v.getDotPath(issue);
  if (part === 'path') throw new HttpError(404, 'not found');
  const where = field ? `${field}` : part;
  const message = issue.kind === 'schema' && issue.input === undefined && field ? 'is required' : issue.message;
  throw new HttpError(400, `${where}: ${message}`);
}
