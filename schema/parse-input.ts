import * as v from 'valibot';
import { describeIssues, nulCharacterAt } from './issue-message';
import { nestsDeeperThan, tooDeepMessage } from './json-depth';

/** Where an input came from: a request body or a socket payload must be a JSON object; path and query parts are objects by construction. */
export type InputPart = 'body' | 'payload' | 'query' | 'path';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * An object in the JSON sense: not an array, string, number, boolean or null. valibot's `object`
 * lets arrays through (`[1,2,3]` has every optional field absent, `[].map` is a function), so
 * this is checked first, for every body and every payload.
 */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Bodyless routes (join, ready, ...) take an empty body or `{}`; unknown fields are dropped as on every body. */
export const NoBody = v.object({});

/**
 * THE parse of client input, for both doors: the REST route binder (body, query, path) and the
 * socket handlers (payloads and lobby command bodies). The message names the field and the rule
 * (issue-message.ts), so a client can fix its call; the caller decides the status (400, or 404 for a path).
 */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown, part: InputPart): Parsed<v.InferOutput<S>> {
  if ((part === 'body' || part === 'payload') && !isJsonObject(input)) return { ok: false, message: `${part} must be a JSON object` };
  // Before any walk over the value: the NUL search and valibot recurse.
  if (nestsDeeperThan(input)) return { ok: false, message: tooDeepMessage(part) };
  const nul = nulCharacterAt(input);
  if (nul !== null) return { ok: false, message: `${nul || part}: must not contain NUL characters` };
  const result = v.safeParse(schema, input);
  if (result.success) return { ok: true, value: result.output };
  return { ok: false, message: describeIssues(result.issues, part) };
}
