import type { Logger } from 'pino';

/** What the policy listens on: the process, or a stand-in in tests. */
export interface ProcessEvents {
  on(event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown) => void): unknown;
  off(event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown) => void): unknown;
}

/**
 * The process's last resort, behind the real defences (every request is answered by its binder's
 * error mapping, every socket event by its guard, which drops only that socket). An error that
 * still escapes them is logged and the process serves on: exiting would cut every player's
 * socket and every request in flight, and nothing restarts it in the simplest deployment, while
 * what the server must keep is already in Postgres and Redis, written atomically, so no
 * half-applied change lives only in this process's memory. The log line says where to look.
 * Returns the function that removes the listeners.
 */
export function installLastResort(events: ProcessEvents, logger: Logger): () => void {
  const uncaught = (error: unknown) => logger.fatal({ err: error }, 'uncaught exception escaped every handler; serving on');
  const unhandled = (error: unknown) => logger.error({ err: error }, 'unhandled promise rejection; serving on');
  events.on('uncaughtException', uncaught);
  events.on('unhandledRejection', unhandled);
  return () => {
    events.off('uncaughtException', uncaught);
    events.off('unhandledRejection', unhandled);
  };
}
