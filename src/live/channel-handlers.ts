/**
 * The local handlers of pub/sub channels. Both stores keep one upstream subscription per channel
 * and fan messages out here. Each `add` is its own subscription, so subscribing the same function
 * twice and unsubscribing once leaves one delivery, and a throwing handler cannot starve the others.
 */
export type MessageHandler = (message: string) => void;

interface Subscription {
  handler: MessageHandler;
  interrupted: (() => void) | undefined;
}

export class ChannelHandlers {
  readonly #channels = new Map<string, Set<Subscription>>();

  constructor(private readonly onHandlerError: (error: unknown, channel: string) => void) {}

  /** Returns the token for `remove`, and whether this is the channel's first handler. */
  add(channel: string, handler: MessageHandler, interrupted?: () => void): { token: object; first: boolean } {
    let subscriptions = this.#channels.get(channel);
    const first = subscriptions === undefined;
    if (!subscriptions) {
      subscriptions = new Set();
      this.#channels.set(channel, subscriptions);
    }
    const token: Subscription = { handler, interrupted };
    subscriptions.add(token);
    return { token, first };
  }

  /** Returns whether the channel has no handler left (false when the token was already removed). */
  remove(channel: string, token: object): boolean {
    const subscriptions = this.#channels.get(channel);
    if (!subscriptions || !subscriptions.delete(token as Subscription)) return false;
    if (subscriptions.size > 0) return false;
    this.#channels.delete(channel);
    return true;
  }

  has(channel: string, token: object): boolean {
    return this.#channels.get(channel)?.has(token as Subscription) ?? false;
  }

  /** The current subscriptions of a channel, to deliver to later. */
  snapshot(channel: string): object[] {
    return [...(this.#channels.get(channel) ?? [])];
  }

  deliver(channel: string, tokens: object[], message: string): void {
    for (const token of tokens) {
      // A handler removed after the message was sent no longer wants it.
      if (!this.has(channel, token)) continue;
      try {
        (token as Subscription).handler(message);
      } catch (error) {
        this.onHandlerError(error, channel);
      }
    }
  }

  /** Every subscription of every channel may have missed messages (see LiveStore.subscribe): each is told once. */
  interrupted(): void {
    for (const [channel, subscriptions] of this.#channels) {
      for (const subscription of [...subscriptions]) {
        try {
          subscription.interrupted?.();
        } catch (error) {
          this.onHandlerError(error, channel);
        }
      }
    }
  }

  clear(): void {
    this.#channels.clear();
  }
}

export const logHandlerError = (error: unknown, channel: string): void => {
  console.error(`live store: a handler of channel "${channel}" threw`, error);
};
