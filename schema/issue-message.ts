import * as v from 'valibot';

/** How much of a client's input an error answer may quote. */
export const ECHO_LIMIT = 32;
const EXPECTED_LIMIT = 120;

/** A short prefix of a schema's own text (never client input), cut between whole characters. */
export function echo(text: string, limit = ECHO_LIMIT): string {
  const characters = Array.from(text);
  return characters.length <= limit ? text : `${characters.slice(0, limit).join('')}…`;
}

// valibot's default wording quotes the received value ("... but received "<100 KB>"").
const DEFAULT_MESSAGE = /^Invalid [^:]+: /;

/** Issues about a key the schema does not know: the key itself is client input. */
const UNKNOWN_KEY = new Set(['never', 'strict_object', 'strict_tuple']);

/**
 * The one wording of a failed parse, for REST and socket answers alike: the field, then the rule
 * it broke, never the value (an answer must not carry client input back: logs, reflected
 * content). A schema's own message is kept; valibot's default one is rebuilt from the rule
 * (label, expected).
 */
export function describeIssue(issue: v.BaseIssue<unknown>, part: string): string {
  if (UNKNOWN_KEY.has(issue.type)) return `${part}: a field the ${part} does not define was sent`;
  const field = v.getDotPath(issue);
  const where = field ?? part;
  if (issue.kind === 'schema' && issue.input === undefined && field) return `${where}: is required`;
  if (!DEFAULT_MESSAGE.test(issue.message)) return `${where}: ${echo(issue.message, EXPECTED_LIMIT)}`;
  return issue.expected ? `${where}: invalid ${issue.type}: expected ${echo(issue.expected, EXPECTED_LIMIT)}` : `${where}: invalid ${issue.type}`;
}

/** The first issue of a failed parse, described. */
export const describeIssues = (issues: readonly v.BaseIssue<unknown>[], part: string): string => describeIssue(issues[0], part);

/**
 * Where a NUL character sits in a client's input (a dot path), or null. Postgres cannot store
 * one in text, so such input is refused up front as a 400 rather than failing in the database.
 */
export function nulCharacterAt(input: unknown, path = ''): string | null {
  // Its own stack rather than recursion: whatever the nesting, the search cannot overflow.
  const pending: Array<{ value: unknown; path: string }> = [{ value: input, path }];
  while (pending.length > 0) {
    const { value, path: at } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return at;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const children: typeof pending = [];
    for (const [key, child] of Object.entries(value)) {
      const here = at ? `${at}.${key}` : key;
      if (key.includes('\u0000')) return here;
      children.push({ value: child, path: here });
    }
    // Reversed onto the stack, so the first field in order is searched first, as before.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
  return null;
}
