import type { Logger } from 'pino';
import { addressResolver } from '../../rest/middleware/credentials';
import type { ExchangeDeps } from '../door/exchange';
import { accessLog, type RequestObserver } from '../observability/request-observer';
import { InFlight } from '../server-lifecycle';

/** What every door's adapter is handed: the exchange's deps and the client address rule. */
export interface DoorAssembly extends ExchangeDeps {
  inFlight: InFlight;
  addressOf: (peer: string, forwardedFor: string | undefined) => string;
}

/**
 * The one exchange's parts, built once: the in-flight set the shutdown drains, the observers every
 * answered request reaches (the access log first; metrics and others are passed in), and the
 * client address from the peer and the trusted proxies.
 */
export function assembleDoor(input: { logger: Logger; trustProxy: string[]; observers?: RequestObserver[] }): DoorAssembly {
  return {
    inFlight: new InFlight(),
    logger: input.logger,
    observers: [accessLog(input.logger), ...(input.observers ?? [])],
    addressOf: addressResolver(input.trustProxy),
  };
}
