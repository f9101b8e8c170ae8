import { afterEach, describe, expect, it } from 'vitest';
import { CheckedReads, type CheckedReadsOptions } from '../../../src/identity/checked-reads';

/** A real-time source the test moves by hand. */
function manualTime() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/**
 * A source of versioned values that counts its loads and its checks; `failChecks` makes the checks
 * fail as an unreachable store would.
 */
function versionedSource() {
  const values = new Map<string, { version: number; text: string }>();
  const source = {
    values,
    loads: 0,
    checks: 0,
    failChecks: false,
    set: (key: string, text: string) => values.set(key, { version: (values.get(key)?.version ?? 0) + 1, text }),
    load: async (key: string) => (source.loads++, values.get(key) ?? null),
    changed: async (known: readonly { key: string; value: { version: number } }[]) => {
      source.checks++;
      if (source.failChecks) throw new Error('store unavailable');
      return known.filter(({ key, value }) => values.get(key)?.version !== value.version).map(({ key }) => key);
    },
  };
  return source;
}

const built: CheckedReads<unknown, unknown>[] = [];
function checkedReads(source: ReturnType<typeof versionedSource>, options: CheckedReadsOptions) {
  const reads = new CheckedReads<string, { version: number; text: string }>(source, { checkEveryMs: 60_000, ...options });
  built.push(reads as CheckedReads<unknown, unknown>);
  return reads;
}

describe('CheckedReads', () => {
  afterEach(() => built.splice(0).forEach((reads) => reads.stop()));

  it('answers from its copy until the copy is maxAgeMs old when no check vouched for it, then reads again', async () => {
    const time = manualTime();
    const source = versionedSource();
    const reads = checkedReads(source, { capacity: 10, maxAgeMs: 500, now: time.now });
    source.set('k', 'before');
    expect((await reads.read('k'))?.text).toBe('before');
    source.set('k', 'after');
    time.advance(499);
    expect((await reads.read('k'))?.text).toBe('before');
    time.advance(1);
    expect((await reads.read('k'))?.text).toBe('after');
    expect(source.loads).toBe(2);
  });

  it('keeps answering from its copy past maxAgeMs while checks find it unchanged, without reading it again', async () => {
    const time = manualTime();
    const source = versionedSource();
    const reads = checkedReads(source, { capacity: 10, maxAgeMs: 500, now: time.now });
    source.set('k', 'kept');
    for (let i = 0; i < 10; i++) {
      expect((await reads.read('k'))?.text).toBe('kept');
      time.advance(400);
      await reads.check();
    }
    expect(source.loads).toBe(1);
  });

  it('reads again once a check found the value changed, before its copy is maxAgeMs old', async () => {
    const source = versionedSource();
    const reads = checkedReads(source, { capacity: 10, maxAgeMs: 500, now: () => 0 });
    source.set('k', 'before');
    await reads.read('k');
    source.set('k', 'after');
    await reads.check();
    expect((await reads.read('k'))?.text).toBe('after');
  });

  it('answers nothing once a check found the value gone', async () => {
    const source = versionedSource();
    const reads = checkedReads(source, { capacity: 10, maxAgeMs: 500, now: () => 0 });
    source.set('k', 'there');
    await reads.read('k');
    source.values.delete('k');
    await reads.check();
    expect(await reads.read('k')).toBeNull();
  });

  it('asks about every copy in use in one check', async () => {
    const source = versionedSource();
    const reads = checkedReads(source, { capacity: 100, now: () => 0 });
    for (let i = 0; i < 50; i++) source.set(`k${i}`, 'v');
    for (let i = 0; i < 50; i++) await reads.read(`k${i}`);
    await reads.check();
    expect(source.checks).toBe(1);
  });

  it('lets its copies expire as before when the check could not reach the source', async () => {
    const time = manualTime();
    const source = versionedSource();
    const reads = checkedReads(source, { capacity: 10, maxAgeMs: 500, now: time.now });
    source.set('k', 'before');
    await reads.read('k');
    source.set('k', 'after');
    source.failChecks = true;
    time.advance(400);
    await reads.check();
    time.advance(100);
    expect((await reads.read('k'))?.text).toBe('after');
  });

  it('stops checking a copy nobody asked for in ten seconds, and drops it', async () => {
    const time = manualTime();
    const source = versionedSource();
    const reads = checkedReads(source, { capacity: 10, now: time.now });
    source.set('k', 'v');
    await reads.read('k');
    time.advance(10_000);
    await reads.check();
    expect(reads.size).toBe(0);
    expect(source.checks).toBe(0);
  });

  it('lets concurrent callers share one read', async () => {
    const source = versionedSource();
    const reads = checkedReads(source, { capacity: 10, now: () => 0 });
    source.set('k', 'v');
    await Promise.all([reads.read('k'), reads.read('k'), reads.read('k')]);
    expect(source.loads).toBe(1);
  });

  it('reads again after forget, and answers what remember was given without reading', async () => {
    const source = versionedSource();
    const reads = checkedReads(source, { capacity: 10, now: () => 0 });
    source.set('k', 'stored');
    await reads.read('k');
    reads.forget('k');
    source.set('k', 'changed');
    expect((await reads.read('k'))?.text).toBe('changed');
    reads.remember('k', { version: 9, text: 'written here' });
    expect((await reads.read('k'))?.text).toBe('written here');
    expect(source.loads).toBe(2);
  });

  it('does not remember a failed read', async () => {
    let fail = true;
    const reads = new CheckedReads<string, string>(
      { load: async () => (fail ? Promise.reject(new Error('store down')) : 'back'), changed: async () => [] },
      { capacity: 10, now: () => 0 },
    );
    built.push(reads as CheckedReads<unknown, unknown>);
    await expect(reads.read('k')).rejects.toThrow('store down');
    fail = false;
    expect(await reads.read('k')).toBe('back');
  });

  it('never holds more entries than its capacity, however many keys are read', async () => {
    const reads = new CheckedReads<number, number>({ load: async (key) => key, changed: async () => [] }, { capacity: 100, now: () => 0 });
    built.push(reads as CheckedReads<unknown, unknown>);
    for (let i = 0; i < 10_000; i++) {
      await reads.read(i);
      expect(reads.size).toBeLessThanOrEqual(100);
    }
  });
});
