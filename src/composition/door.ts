import type { Logger } from 'pino';
import { addressResolver } from '../../rest/middleware/credentials';
import { DoorBindings } from '../door/door-bindings';
import type { ExchangeDeps } from '../door/exchange';
import type { RequestScopes } from '../door/request-scope';
import { accessLog, type RequestObserver } from '../observability/request-observer';
import { InFlight } from '../server-lifecycle';

/** What every door's adapter is handed: the exchange's deps and the client address rule. */
export interface DoorAssembly extends ExchangeDeps {
  inFlight: InFlight;
  bindings: DoorBindings;
  addressOf: (peer: string, forwardedFor: string | undefined) => string;
}

/**
 * The one exchange's parts, built once: the in-flight set the shutdown drains, the observers every
 * answered request reaches (the access log first; metrics and others are passed in), and the
 * client address from the peer and the trusted proxies.
 */
export function assembleDoor(input: { logger: Logger; trustProxy: string[]; observers?: RequestObserver[]; scopes?: RequestScopes }): DoorAssembly {
  return {
    scopes: input.scopes,
    inFlight: new InFlight(),
    bindings: new DoorBindings(),
    logger: input.logger,
    observers: [accessLog(input.logger), ...(input.observers ?? [])],
    addressOf: addressResolver(input.trustProxy),
  };
}
