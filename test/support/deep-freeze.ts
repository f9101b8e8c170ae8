/**
 * Freezes a plain JSON document all the way down, so that code handed it (a lobby rule) throws
 * on any change in place (modules run in strict mode) instead of changing it silently.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}
