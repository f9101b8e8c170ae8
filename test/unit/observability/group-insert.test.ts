import { describe, expect, it } from 'vitest';
import { GroupInsert } from '../../../src/observability/group-insert';

/** An insert whose statements the test completes by hand, recording what each held. */
function manualInsert() {
  const statements: Array<{ rows: readonly number[]; commit(): void; fail(error: Error): void }> = [];
  const insert = (rows: readonly number[]) =>
    new Promise<void>((resolve, reject) => statements.push({ rows, commit: resolve, fail: reject }));
  return { statements, insert };
}

const settled = async (promise: Promise<unknown>): Promise<string> => {
  let state = 'pending';
  promise.then(() => (state = 'resolved'), () => (state = 'rejected'));
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('GroupInsert', () => {
  it('writers arriving while a statement is in flight share the next one', async () => {
    const { statements, insert } = manualInsert();
    const group = new GroupInsert(insert, 100, 1);
    const first = group.write([1]);
    const waiting = [group.write([2, 3]), group.write([4])];
    await new Promise((resolve) => setImmediate(resolve));
    expect(statements.map((s) => s.rows)).toEqual([[1]]);
    statements[0].commit();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(statements.map((s) => s.rows)).toEqual([[1], [2, 3, 4]]);
    statements[1].commit();
    await Promise.all(waiting);
  });

  it('no writer is answered before the statement holding its rows commits', async () => {
    const { statements, insert } = manualInsert();
    const write = new GroupInsert(insert, 100, 1).write([1]);
    expect(await settled(write)).toBe('pending');
    statements[0].commit();
    expect(await settled(write)).toBe('resolved');
  });

  it('a failed statement fails every writer in it and the next group is still written', async () => {
    const { statements, insert } = manualInsert();
    const group = new GroupInsert(insert, 100, 1);
    const first = group.write([1]);
    const second = group.write([2]);
    statements[0].fail(new Error('database down'));
    await expect(first).rejects.toThrow('database down');
    await new Promise((resolve) => setImmediate(resolve));
    statements[1].commit();
    await expect(second).resolves.toBeUndefined();
  });

  it('a statement holds at most maxRows rows, callers kept whole', async () => {
    const { statements, insert } = manualInsert();
    const group = new GroupInsert(insert, 3, 1);
    const writes = [group.write([1]), group.write([2, 3]), group.write([4, 5]), group.write([6])];
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      statements[i]?.commit();
    }
    await Promise.all(writes);
    expect(statements.map((s) => s.rows)).toEqual([[1], [2, 3], [4, 5, 6]]);
  });
});
