import { describe, expect, it } from 'vitest';
import { KeyedSerializer } from '../../src/engine/keyed-serializer';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('keyed serializer', () => {
  it('runs tasks of one key one after another, in order', async () => {
    const lanes = new KeyedSerializer();
    const gate = deferred();
    const order: string[] = [];
    const first = lanes.run('a', async () => {
      await gate.promise;
      order.push('first');
    });
    const second = lanes.run('a', async () => {
      order.push('second');
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    gate.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
  });

  it('runs tasks of different keys side by side', async () => {
    const lanes = new KeyedSerializer();
    const gate = deferred();
    const blocked = lanes.run('a', () => gate.promise);
    await expect(lanes.run('b', async () => 'b done')).resolves.toBe('b done');
    gate.resolve();
    await blocked;
  });

  it('a failed task rejects its caller and does not block the next', async () => {
    const lanes = new KeyedSerializer();
    const failing = lanes.run('a', async () => {
      throw new Error('refused');
    });
    const next = lanes.run('a', async () => 'ran');
    await expect(failing).rejects.toThrow('refused');
    await expect(next).resolves.toBe('ran');
  });

  it('forgets a key once its lane is empty', async () => {
    const lanes = new KeyedSerializer();
    await lanes.run('a', async () => undefined);
    await new Promise((r) => setImmediate(r));
    expect(lanes.busyKeys).toBe(0);
  });
});
