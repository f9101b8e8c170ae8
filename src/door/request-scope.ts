import { AsyncLocalStorage } from 'node:async_hooks';

/** The request an exchange is serving, and the step it is in. */
export interface RequestScope {
  requestId: string;
  /** `credentials` until the caller is known (its reads may be shared with other requests), then `handler`. */
  step: 'credentials' | 'handler';
}

/** An observer of every database statement that is also told which request sent it. */
export type RequestQueryObserver = (sql: string, seconds: number, failed: boolean, request: RequestScope | undefined) => void;

/**
 * Carries the request an exchange serves through its awaits, so that what runs on its behalf (the
 * credential step, the handler, the statements they send) can name it. Work a request started and
 * left running after its answer still names it; an observer that cares checks it is unanswered.
 * Built only when something reads it (a statement observer given to startServer): keeping a store
 * on every promise of every request cost about 8% of a lobby command's server CPU
 * (`npm run bench -- lobby-rest`), which a server nobody asks costs nothing.
 */
export class RequestScopes {
  readonly #storage = new AsyncLocalStorage<RequestScope>();

  /** Runs `work` as the step `step` of the request `requestId`. */
  run<T>(requestId: string, step: RequestScope['step'], work: () => T): T {
    return this.#storage.run({ requestId, step }, work);
  }

  /** The request the current code runs for, or undefined outside any (a timer, a worker). */
  current(): RequestScope | undefined {
    return this.#storage.getStore();
  }
}
