import type { LogContext, Logger, LoggerNamespace } from '@mikro-orm/core';

/** Told of every statement the ORM ran: its SQL, how long it took, whether it failed. */
export type QueryObserver = (sql: string, seconds: number, failed: boolean) => void;

/**
 * MikroORM's logger, with one addition: the ORM hands `logQuery` every statement it ran with
 * `took` (ms) and `level: 'error'` on failure, whether or not query logging is on, so this is the
 * narrowest seam that sees every database call (entity manager, raw `execute`, transactions,
 * migrations) without wrapping any of them. Everything else goes to the ORM's own logger.
 */
export class QueryTimingLogger implements Logger {
  constructor(
    private readonly inner: Logger,
    private readonly observe: QueryObserver,
  ) {}

  logQuery(context: LogContext): void {
    if (context.took !== undefined && context.query !== undefined && (context.namespace ?? 'query') === 'query') {
      this.observe(context.query, context.took / 1000, context.level === 'error');
    }
    this.inner.logQuery(context);
  }

  log(namespace: LoggerNamespace | (string & {}), message: string, context?: LogContext): void {
    this.inner.log(namespace, message, context);
  }

  error(namespace: LoggerNamespace | (string & {}), message: string, context?: LogContext): void {
    this.inner.error(namespace, message, context);
  }

  warn(namespace: LoggerNamespace | (string & {}), message: string, context?: LogContext): void {
    this.inner.warn(namespace, message, context);
  }

  setDebugMode(debugMode: boolean | LoggerNamespace[]): void {
    this.inner.setDebugMode(debugMode);
  }

  isEnabled(namespace: LoggerNamespace, context?: LogContext): boolean {
    return this.inner.isEnabled(namespace, context);
  }
}
