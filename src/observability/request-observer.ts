import type { Logger } from 'pino';
import { unmatchedRoute } from '../../schema/routes/site-routes';

/** One answered request or socket command, as every door reports it once answered. */
export interface RequestRecord {
  door: 'http' | 'socket';
  method: string;
  /** The route's template (`/api/lobbies/:code`), or 'unmatched' for a 404: label sets stay bounded. */
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
}

export type RequestObserver = (record: RequestRecord) => void;

/** The route of a request no route matched. */
export const UNMATCHED_ROUTE = unmatchedRoute.path;

/** The access log: one line per request, at every door, carrying the request id. */
export function accessLog(logger: Logger): RequestObserver {
  return (record) => logger.info(record, 'request');
}

/** Runs every observer; one that throws neither hides the others nor fails the request. */
export function notifyObservers(observers: readonly RequestObserver[], record: RequestRecord, logger: Logger): void {
  for (const observe of observers) {
    try {
      observe(record);
    } catch (error) {
      logger.warn({ err: error }, 'request observer failed');
    }
  }
}
