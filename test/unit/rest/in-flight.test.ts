import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { InFlight } from '../../../src/server-lifecycle';

/** A request as a door tracks it: it leaves the set when its answer finishes or its connection closes. */
function request(inFlight: InFlight): EventEmitter {
  const res = new EventEmitter();
  const leave = inFlight.enter({ refuse: () => res.emit('refused') });
  if (leave) {
    res.once('finish', leave);
    res.once('close', leave);
  }
  return res;
}

describe('requests in flight', () => {
  it('drain resolves at once when nothing is in flight', async () => {
    expect(await new InFlight().drain(1_000)).toBe(0);
  });

  it('drain waits for the requests already running to finish', async () => {
    const inFlight = new InFlight();
    const a = request(inFlight);
    const b = request(inFlight);
    const drained = inFlight.drain(10_000);
    a.emit('finish');
    expect(inFlight.count).toBe(1);
    b.emit('close');
    expect(await drained).toBe(0);
  });

  it('a request that both finishes and closes is counted out once', () => {
    const inFlight = new InFlight();
    const a = request(inFlight);
    request(inFlight);
    a.emit('finish');
    a.emit('close');
    expect(inFlight.count).toBe(1);
  });

  it('drain gives up after its timeout, saying how many are left', async () => {
    const inFlight = new InFlight();
    request(inFlight);
    expect(await inFlight.drain(10)).toBe(1);
  });
});
