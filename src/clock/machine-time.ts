/**
 * The machine's own time, for what must follow the real world and not the league's clock: a fence
 * deadline compared with Redis's TIME, socket.io's recovery windows, how long a wait for another
 * system has lasted. What the league's rules read (bans, deadlines, sessions, ledger rows) is the
 * clock injected at the composition root, which tests set; these two stay real in every test, so a
 * test's frozen clock can never make a wait endless or a fence stale.
 */
export const machineTime = {
  /** Milliseconds since the epoch, as another machine's clock (Redis's TIME) counts them. */
  wall: (): number => Date.now(),
  /** A monotonic count in milliseconds: only the difference of two readings means anything. */
  elapsed: (): number => performance.now(),
};
