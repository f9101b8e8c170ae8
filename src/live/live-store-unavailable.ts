/**
 * The live store's one error for "cannot reach it now": Redis down, paused, restarting or slower
 * than the command deadline. The HTTP layer answers it 503 with Retry-After; it says nothing about
 * the data, so the caller may retry the same request once the store answers again. A write that
 * ends in this error was not applied and never will be (see RedisLiveStore's deadline fence).
 */
export class LiveStoreUnavailable extends Error {
  constructor(message = 'the live store is unavailable', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LiveStoreUnavailable';
  }
}
