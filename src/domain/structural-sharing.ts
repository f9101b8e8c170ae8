/**
 * Structural equality and sharing between two plain JSON documents (objects, arrays, strings, numbers,
 * booleans, null: all a lobby state holds).
 *
 * `sharedCopy(prev, next)` answers `prev` itself when the two are deeply equal (key order aside),
 * and otherwise a document equal to `next` in which every part deeply equal to the part of `prev`
 * at the same place is `prev`'s own object. Neither input is changed: a container is copied only
 * where one of its children was swapped for `prev`'s.
 *
 * The lobby rules work on a copy of the parts a command changes, so a keep-ready hands back every
 * slot of both teams as a new object although one changed. Shared, the unchanged slots stay the
 * very objects the renderer and the next compare already know, which find them by identity
 * (LobbyUpdateRenderer keeps each slot's JSON) instead of walking and serializing them again.
 */
export function sharedCopy<T>(prev: T, next: T): T {
  if (prev === next) return prev;
  if (typeof prev !== 'object' || typeof next !== 'object' || prev === null || next === null) return next;
  if (Array.isArray(prev) !== Array.isArray(next)) return next;
  return (Array.isArray(next) ? sharedArray(prev as unknown[], next) : sharedRecord(prev as Record<string, unknown>, next as Record<string, unknown>)) as T;
}

function sharedArray(prev: unknown[], next: unknown[]): unknown[] {
  let equal = prev.length === next.length;
  let copy: unknown[] | null = null;
  for (let i = 0; i < next.length; i++) {
    const part = i < prev.length ? sharedCopy(prev[i], next[i]) : next[i];
    if (i >= prev.length || part !== prev[i]) equal = false;
    if (part !== next[i]) (copy ??= next.slice())[i] = part;
  }
  return equal ? prev : (copy ?? next);
}

function sharedRecord(prev: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  let equal = true;
  let keys = 0;
  let copy: Record<string, unknown> | null = null;
  // for-in, not Object.keys: no array of the keys per object (see cloneDocument).
  for (const key in next) {
    if (!Object.hasOwn(next, key)) continue;
    keys++;
    const known = Object.hasOwn(prev, key);
    const part = known ? sharedCopy(prev[key], next[key]) : next[key];
    if (!known || part !== prev[key]) equal = false;
    if (part !== next[key]) (copy ??= { ...next })[key] = part;
  }
  return equal && keys === ownKeyCount(prev) ? prev : (copy ?? next);
}

/**
 * Structural equality of two JSON documents (key order ignored). It runs on every command over
 * the whole state, so it builds no key arrays: Object.keys of an array made a string of every
 * index, and key arrays were a tenth of the bytes a lobby command allocated (a sampling heap
 * profile).
 */
export function sameState(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameState(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    if (!Object.hasOwn(y, key) || !sameState(x[key], y[key])) return false;
    keys++;
  }
  return keys === ownKeyCount(y);
}

export function ownKeyCount(record: object): number {
  let keys = 0;
  for (const key in record) if (Object.hasOwn(record, key)) keys++;
  return keys;
}
