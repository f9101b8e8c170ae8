import type { CasWrite, Commit, DueEntry, NumberedPush, ReadGuard, WindowCheck } from './live-store';

/**
 * Argument rules shared by both live stores, so that a bad call fails the same way on either
 * instead of passing on one and doing something surprising on the other (Redis, for one, deletes
 * a key given a TTL of 0 and rejects a fractional one).
 */

export function checkCasWrites(writes: CasWrite[]): void {
  const seen = new Set<string>();
  for (const write of writes) {
    // Two writes to one key would each be checked against the same old version: ambiguous.
    if (seen.has(write.key)) throw new Error(`compareAndSet: key "${write.key}" appears twice; one write per key`);
    seen.add(write.key);
    if (!Number.isInteger(write.expectedVersion) || write.expectedVersion < 0) {
      throw new RangeError(`compareAndSet: expectedVersion of "${write.key}" must be an integer >= 0`);
    }
    if (write.value === undefined) throw new TypeError(`compareAndSet: value of "${write.key}" is undefined; use null to delete`);
    if (write.ttlMs !== undefined) ttlMilliseconds(write.ttlMs, 'compareAndSet');
    if (write.parts !== undefined) checkParts(write);
  }
}

function checkParts(write: CasWrite): void {
  const { key, value, parts } = write;
  if (value === null) throw new TypeError(`compareAndSet: a deletion of "${key}" has no parts`);
  if (typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`compareAndSet: a value of "${key}" stored in parts must be an object`);
  if (parts !== 'all' && write.expectedVersion === 0) throw new RangeError(`compareAndSet: "${key}" is new: write all its parts`);
}

/** The parts of a parted write as [field, JSON] pairs, JSON '' for a removed field. */
export function encodeParts(write: CasWrite): Array<[string, string]> {
  const value = write.value as Record<string, unknown>;
  const names = write.parts === 'all' ? Object.keys(value) : write.parts!;
  return names.map((name) => [name, value[name] === undefined ? '' : encodeValue(value[name], 'compareAndSet')]);
}

/** The checks of compareAndSet, and a key guarded no more than once and not also written. */
export function checkCommit(commit: Commit): void {
  checkCasWrites(commit.writes);
  checkCasSchedule(commit.schedule, commit.writes);
  const seen = new Set(commit.writes.map((write) => write.key));
  for (const guard of commit.guards ?? []) {
    if (seen.has(guard.key)) throw new Error(`commit: key "${guard.key}" is guarded twice or also written`);
    seen.add(guard.key);
    checkExpectedVersion(guard, 'commit');
  }
  for (const hit of commit.hits ?? []) checkWindowCheck(hit, 'commit');
}

/** The checks of pushNumbered: a positive whole list length, and its hits as hitWindow takes them. */
export function checkNumberedPush(push: NumberedPush): void {
  checkPositiveInteger(push.maxLength, 'maxLength', 'pushNumbered');
  for (const hit of push.hits ?? []) checkWindowCheck(hit, 'pushNumbered');
  for (const guard of push.versions ?? []) checkExpectedVersion(guard, 'pushNumbered');
}

/** A version guard's expected version: a whole number, 0 for a document that must be absent. */
function checkExpectedVersion(guard: ReadGuard, method: string): void {
  if (!Number.isInteger(guard.expectedVersion) || guard.expectedVersion < 0) {
    throw new RangeError(`${method}: expectedVersion of guard "${guard.key}" must be an integer >= 0`);
  }
}

/** A limit hit as `hitWindow` takes it: a time, a positive window and a positive whole limit. */
export function checkWindowCheck(hit: WindowCheck, method: string): void {
  checkScore(hit.now, 'now', method);
  ttlMilliseconds(hit.windowMs, method);
  checkPositiveInteger(hit.limit, 'limit', method);
}

/** A deadline set with a compare-and-set goes into a queue none of the writes touches (one key, one kind of data). */
export function checkCasSchedule(schedule: DueEntry | undefined, writes: CasWrite[]): void {
  if (!schedule) return;
  checkScore(schedule.dueAt, 'dueAt', 'compareAndSet');
  if (writes.some((write) => write.key === schedule.queue)) {
    throw new Error(`compareAndSet: the deadline queue "${schedule.queue}" is also a written key`);
  }
}

/** A TTL as the whole number of milliseconds both stores apply. */
export function ttlMilliseconds(ttlMs: number, method: string): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError(`${method}: ttlMs must be a positive number of milliseconds`);
  return Math.ceil(ttlMs);
}

export function checkPositiveInteger(value: number, name: string, method: string): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${method}: ${name} must be a positive integer`);
}

export function checkScore(score: number, name: string, method: string): void {
  if (Number.isNaN(score)) throw new RangeError(`${method}: ${name} must be a number, not NaN`);
}

/** Both stores keep values as JSON text, so a caller never shares an object with the store. */
export function encodeValue(value: unknown, method: string): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError(`${method}: value is not JSON-serialisable`);
  return json;
}
