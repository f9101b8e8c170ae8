import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiKeyAuditRow } from '../../../src/db/audit-repository';
import { KeyAuditLog, type KeyUse } from '../../../src/identity/key-audit-log';

const SECRET = 'audit-address-secret';
const use = (n: number): KeyUse => ({ keyId: 1, endpoint: `/api/x/${n}`, method: 'GET', clientAddress: '203.0.113.9', status: 200, at: 1_700_000_000_000 + n });

function recordingSink(options: { failFirst?: number } = {}) {
  const batches: ApiKeyAuditRow[][] = [];
  let failures = options.failFirst ?? 0;
  return {
    batches,
    rows: () => batches.flat(),
    insertMany: vi.fn(async (rows: readonly ApiKeyAuditRow[]) => {
      if (failures > 0) {
        failures--;
        throw new Error('database unavailable');
      }
      batches.push([...rows]);
    }),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the key audit log', () => {
  it('writes nothing while a request is being answered: record() only queues', () => {
    const sink = recordingSink();
    const log = new KeyAuditLog(sink, SECRET);
    log.record(use(1));
    expect(sink.insertMany).not.toHaveBeenCalled();
    expect(log.waiting).toBe(1);
  });

  it('flushes queued rows about a second later, in one insert', async () => {
    vi.useFakeTimers();
    const sink = recordingSink();
    const log = new KeyAuditLog(sink, SECRET);
    for (let i = 0; i < 5; i++) log.record(use(i));
    await vi.advanceTimersByTimeAsync(999);
    expect(sink.insertMany).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(sink.batches.map((b) => b.length)).toEqual([5]);
  });

  it('flushes at once when 100 rows are waiting, in batches of at most 100', async () => {
    const sink = recordingSink();
    const log = new KeyAuditLog(sink, SECRET);
    for (let i = 0; i < 250; i++) log.record(use(i));
    await log.close();
    expect(sink.batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(sink.rows().map((r) => r.endpoint)).toEqual(Array.from({ length: 250 }, (_, i) => `/api/x/${i}`));
  });

  it('loses nothing when a batch fails: it is retried, in order', async () => {
    vi.useFakeTimers();
    const sink = recordingSink({ failFirst: 1 });
    const log = new KeyAuditLog(sink, SECRET, { onError: () => undefined });
    for (let i = 0; i < 3; i++) log.record(use(i));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sink.rows()).toHaveLength(0);
    log.record(use(3));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sink.rows().map((r) => r.endpoint)).toEqual(['/api/x/0', '/api/x/1', '/api/x/2', '/api/x/3']);
  });

  it('writes everything left on close', async () => {
    const sink = recordingSink();
    const log = new KeyAuditLog(sink, SECRET);
    log.record(use(1));
    log.record(use(2));
    await log.close();
    expect(sink.rows()).toHaveLength(2);
    expect(log.waiting).toBe(0);
  });

  it('stores the client address as an HMAC with the server secret, never the address', async () => {
    const sink = recordingSink();
    const log = new KeyAuditLog(sink, SECRET);
    log.record(use(1));
    await log.close();
    const [row] = sink.rows();
    expect(row.clientHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.clientHash).toBe(log.hashAddress('203.0.113.9'));
    expect(row.clientHash).not.toBe(new KeyAuditLog(sink, 'another-secret').hashAddress('203.0.113.9'));
    expect(JSON.stringify(row)).not.toContain('203.0.113.9');
  });

  it('notes when each key was last used, after its rows are written', async () => {
    const sink = { ...recordingSink(), touchLastUsed: vi.fn(async () => undefined) };
    const log = new KeyAuditLog(sink, SECRET);
    log.record(use(1));
    log.record({ ...use(2), keyId: 2 });
    log.record(use(3));
    await log.close();
    expect(sink.touchLastUsed.mock.calls).toEqual([
      [1, new Date(use(3).at)],
      [2, new Date(use(2).at)],
    ]);
  });
});
