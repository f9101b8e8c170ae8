/**
 * How deep a client's JSON may nest. Nothing the server takes nests past a handful of levels; a
 * bound well above that keeps every later walk over the value (validation, stringify, logging)
 * far from the stack's limit: `[` x 5000 in a 10 KB socket frame made JSON.stringify overflow.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a parsed JSON value nests deeper than `max` (an object or array is one level). Walks
 * with its own stack, never recursion, so the check itself cannot overflow whatever it is given.
 */
export function nestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: here, depth } = pending.pop()!;
    if (here === null || typeof here !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(here)) {
      if (child !== null && typeof child === 'object') pending.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/** The wording of that refusal, the same for bodies and socket payloads. */
export const tooDeepMessage = (part: string): string => `${part}: nested deeper than ${MAX_JSON_DEPTH} levels`;
