/**
 * The tests' one poll: reads until `done` holds of what it read (something that happens on its own
 * schedule: a worker, an expiry, a delivery), or fails after `withinMs` naming `what` and the last
 * value read. Event-driven waits (a socket event, a fake's own wait) are better where they exist.
 */
export async function poll<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  options: number | { withinMs?: number; what?: string; everyMs?: number } = {},
): Promise<T> {
  const { withinMs = 15_000, what = 'condition', everyMs = 25 } = typeof options === 'number' ? { withinMs: options } : options;
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${withinMs} ms; last value ${describe(value)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 500) ?? String(value);
  } catch {
    return String(value);
  }
}
