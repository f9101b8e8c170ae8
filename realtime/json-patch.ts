import type { LobbyPatchOp as JsonPatchOp } from '../schema/realtime';

/**
 * RFC 6902 JSON Patch, the subset `lobby:patch` uses: `add`, `remove` and `replace` with RFC 6901
 * pointers. `diffJson` is computed once per lobby change on each instance (see lobby-fanout.ts) and
 * sent to every patch subscriber; `applyJsonPatch` is the client side (the live page has the same
 * few lines in realtime/public/app.js), here for tests and TypeScript clients.
 *
 * Why a diff of plain JSON and not ops from the engine: the LobbyDetail is a view (it depends on
 * the clock and on derived fields), so the only sure way to say what a subscriber's copy must
 * become is to compare the two views it would have been sent.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The ops that turn `from` into `to` (both JSON values). Arrays are diffed by index: a lobby's slots keep their places. */
export function diffJson(from: unknown, to: unknown): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [];
  diff(from as Json, to as Json, '', ops);
  return ops;
}

function diff(from: Json, to: Json, path: string, ops: JsonPatchOp[]): void {
  if (from === to) return;
  if (Array.isArray(from) && Array.isArray(to)) {
    const common = Math.min(from.length, to.length);
    for (let i = 0; i < common; i++) diff(from[i], to[i], `${path}/${i}`, ops);
    for (let i = common; i < to.length; i++) ops.push({ op: 'add', path: `${path}/${i}`, value: to[i] });
    // From the end, so each index is still there when its op runs.
    for (let i = from.length - 1; i >= common; i--) ops.push({ op: 'remove', path: `${path}/${i}` });
    return;
  }
  if (isObject(from) && isObject(to)) {
    for (const key of Object.keys(from)) if (!(key in to)) ops.push({ op: 'remove', path: `${path}/${escape(key)}` });
    for (const [key, value] of Object.entries(to)) {
      const at = `${path}/${escape(key)}`;
      if (key in from) diff(from[key], value, at, ops);
      else ops.push({ op: 'add', path: at, value });
    }
    return;
  }
  ops.push({ op: 'replace', path, value: to });
}

/** `document` with `ops` applied (a new value; `document` is changed in place where it can be). */
export function applyJsonPatch<T>(document: T, ops: readonly JsonPatchOp[]): T {
  let root = document as unknown as Json;
  for (const op of ops) {
    if (op.path === '') {
      root = op.op === 'remove' ? null : (op.value as Json);
      continue;
    }
    const keys = op.path.slice(1).split('/').map(unescape);
    const last = keys.pop()!;
    let parent = root as Record<string, Json> | Json[];
    for (const key of keys) parent = (parent as Record<string, Json>)[key] as Record<string, Json> | Json[];
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(index, 0, op.value as Json);
      else if (op.op === 'remove') parent.splice(index, 1);
      else parent[index] = op.value as Json;
    } else if (op.op === 'remove') delete parent[last];
    else parent[last] = op.value as Json;
  }
  return root as unknown as T;
}

function isObject(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const unescape = (key: string) => key.replace(/~1/g, '/').replace(/~0/g, '~');
