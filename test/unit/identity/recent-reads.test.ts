import { describe, expect, it } from 'vitest';
import { RecentReads } from '../../../src/identity/recent-reads';

/** A real-time source the test moves by hand. */
function manualTime() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A source that counts its reads and answers the value it holds now. */
function countingSource<V>(initial: V) {
  const source = { value: initial, reads: 0, load: async () => (source.reads++, source.value) };
  return source;
}

describe('RecentReads', () => {
  it('answers from its copy until the copy is maxAgeMs old, then reads again', async () => {
    const time = manualTime();
    const reads = new RecentReads<string, string>({ capacity: 10, maxAgeMs: 500, now: time.now });
    const source = countingSource('before');
    expect(await reads.read('k', source.load)).toBe('before');
    source.value = 'after';
    time.advance(499);
    expect(await reads.read('k', source.load)).toBe('before');
    time.advance(1);
    expect(await reads.read('k', source.load)).toBe('after');
    expect(source.reads).toBe(2);
  });

  it('lets concurrent callers share one read', async () => {
    const reads = new RecentReads<string, string>({ capacity: 10, now: () => 0 });
    const source = countingSource('v');
    await Promise.all([reads.read('k', source.load), reads.read('k', source.load), reads.read('k', source.load)]);
    expect(source.reads).toBe(1);
  });

  it('reads again after forget, and answers what remember was given without reading', async () => {
    const reads = new RecentReads<string, string>({ capacity: 10, now: () => 0 });
    const source = countingSource('stored');
    await reads.read('k', source.load);
    reads.forget('k');
    source.value = 'changed';
    expect(await reads.read('k', source.load)).toBe('changed');
    reads.remember('k', 'written here');
    expect(await reads.read('k', source.load)).toBe('written here');
    expect(source.reads).toBe(2);
  });

  it('does not remember a failed read', async () => {
    const reads = new RecentReads<string, string>({ capacity: 10, now: () => 0 });
    await expect(reads.read('k', () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(await reads.read('k', async () => 'back')).toBe('back');
  });

  it('never holds more entries than its capacity, however many keys are read', async () => {
    const reads = new RecentReads<number, number>({ capacity: 100, now: () => 0 });
    for (let i = 0; i < 10_000; i++) {
      await reads.read(i, async () => i);
      expect(reads.size).toBeLessThanOrEqual(100);
    }
  });

  it('drops expired copies as new reads come in, so idle keys leave nothing behind', async () => {
    const time = manualTime();
    const reads = new RecentReads<number, number>({ capacity: 1_000, maxAgeMs: 500, now: time.now });
    for (let i = 0; i < 50; i++) await reads.read(i, async () => i);
    time.advance(500);
    await reads.read(-1, async () => -1);
    expect(reads.size).toBe(1);
  });
});
