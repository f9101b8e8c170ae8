import * as v from 'valibot';
import { describeIssues } from '../schema/issue-message';
import { HttpError } from './http-error';

/** Parses one part of a request; the 400 names the field and the rule, never echoing more than a prefix of the input. */
export function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown, part: 'body' | 'query' | 'path'): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  if (part === 'path') throw new HttpError(404, 'not found');
  throw new HttpError(400, describeIssues(result.issues, part));
}
