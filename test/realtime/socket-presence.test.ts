import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SocketData } from '../../schema/realtime';
import { keepSessionsOnline } from '../../realtime/socket-presence';

function fakeIo(data: SocketData[]) {
  const sockets = new Map(data.map((d, i) => [`s${i}`, { data: d }]));
  return { of: () => ({ sockets }) } as unknown as Parameters<typeof keepSessionsOnline>[0];
}

describe('the presence heartbeat of session sockets', () => {
  afterEach(() => vi.useRealTimers());

  it('touches each connected session user once per beat, and nobody else', () => {
    vi.useFakeTimers();
    const touched: number[] = [];
    const io = fakeIo([
      { userId: 1, credential: 'session' },
      { userId: 1, credential: 'session' }, // a second tab
      { userId: 2, credential: 'session' },
      { userId: 3, credential: 'premium' },
      { userId: null, credential: 'anonymous' },
    ]);
    const stop = keepSessionsOnline(io, { touch: (id) => void touched.push(id) }, pino({ level: 'silent' }), 1_000);

    vi.advanceTimersByTime(1_000);
    expect(touched.sort()).toEqual([1, 2]);
    vi.advanceTimersByTime(1_000);
    expect(touched).toHaveLength(4);

    stop();
    vi.advanceTimersByTime(5_000);
    expect(touched).toHaveLength(4);
  });
});
