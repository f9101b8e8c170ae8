import { expect } from 'vitest';
import type { LiveStore, NumberedPush, NumberedPushResult } from '../../src/live/live-store';
import { poll } from '../support/poll';

/**
 * What a contract run gets from the store under test. A store on a controllable clock (memory)
 * lets TTL rules run without waiting; a store on real time (Redis) is polled instead, so the same
 * rule is written once for both.
 */
export interface LiveStoreHarness {
  store: LiveStore;
  clock?: { advance(ms: number): void };
  /** Opens another instance onto the same state (a second connection); only stores shared across instances have it. */
  openPeer?: () => Promise<LiveStore>;
}

export type MakeLiveStore = () => Promise<LiveStoreHarness>;

/** An entry `{"n": <its number>, "text": text}` as a numbered push writes it (see NumberedPush). */
export const numberedText = (text: string) => ({ before: '{"n":', after: `,"text":${JSON.stringify(text)}}` });

/** A numbered push of `text` onto the list `key` (at most 10 kept), numbered by the counter `<key>:seq`. */
export const pushText = (store: LiveStore, key: string, text: string, extra: Partial<NumberedPush> = {}): Promise<NumberedPushResult> =>
  store.pushNumbered({ key, maxLength: 10, sequence: `${key}:seq`, entry: numberedText(text), ...extra });

export interface LiveStoreContractOptions {
  /** True when two instances of the store see one state (Redis): the cross-instance races run. */
  sharedAcrossInstances: boolean;
}

/** Short real TTLs for stores on real time, for keys only waited on until they are gone. */
export const SHORT_TTL_MS = 80;
/**
 * For keys that must still be there when the test acts on them a moment after writing: long
 * enough that a busy machine does not expire them first, short enough to wait out.
 */
export const ACTABLE_TTL_MS = 250;

const POLL_MS = 10;
const EXPIRY_GRACE_MS = 2_000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Lets `ms` pass: on the store's clock if it has one, otherwise for real. */
export async function passTime(harness: LiveStoreHarness, ms: number): Promise<void> {
  if (harness.clock) harness.clock.advance(ms);
  else await sleep(ms);
}

/**
 * Asserts that `condition` holds once `ttlMs` has run out. With a clock the time is advanced and
 * the condition checked once; on real time it is polled, so the wait is no longer than Redis takes.
 */
export async function expectAfterExpiry(
  harness: LiveStoreHarness,
  ttlMs: number,
  condition: () => Promise<boolean>,
  what: string,
): Promise<void> {
  if (harness.clock) {
    harness.clock.advance(ttlMs + 1);
    expect(await condition(), what).toBe(true);
    return;
  }
  await poll(condition, (holds) => holds, { withinMs: ttlMs + EXPIRY_GRACE_MS, what: `${what}: still not true after writing`, everyMs: POLL_MS });
}

/** Waits for asynchronous deliveries: until `received` holds `count` items, or fails after 2 s. */
export async function waitForCount(received: unknown[], count: number, what: string): Promise<void> {
  await poll(() => received.length, (n) => n >= count, { withinMs: 2_000, what: `${what}: ${count} deliveries`, everyMs: POLL_MS });
}
