import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { PayPalClient } from '../integrations/paypal/paypal-client';
import { PremiumService } from '../premium/premium-service';
import type { WebhookEvent } from '../integrations/paypal/paypal-wire';
import type { Repositories } from './repositories';

/** Premium purchases: grants, orders, and the PayPal client when its credentials are configured. */
export function assemblePremium(input: {
  config: Config;
  repos: Pick<Repositories, 'premium' | 'premiumOrders'>;
  paypal: PayPalClient | null;
  /** Other areas' PayPal orders (cup entries) heard on premium's webhook. */
  otherOrders?: (event: WebhookEvent) => Promise<boolean>;
  clock: () => number;
  logger: Logger;
}): PremiumService {
  const { config, clock } = input;
  return new PremiumService({
    grants: input.repos.premium,
    orders: input.repos.premiumOrders,
    paypal: input.paypal,
    otherOrders: input.otherOrders,
    webhookId: config.paypal.webhookId,
    prices: config.premium.prices,
    currency: config.premium.currency,
    publicUrl: config.publicUrl,
    clock,
    random: (n) => randomBytes(n),
    logger: input.logger,
  });
}

/** One PayPal client for every area that takes money (premium, cups), when its credentials are configured. */
export function paypalClient(config: Config, clock: () => number): PayPalClient | null {
  const { paypal } = config;
  return paypal.clientId && paypal.clientSecret
    ? new PayPalClient({ apiUrl: paypal.apiUrl, clientId: paypal.clientId, clientSecret: paypal.clientSecret, timeoutMs: paypal.timeoutMs, clock })
    : null;
}
