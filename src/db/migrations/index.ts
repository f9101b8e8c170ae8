import type { MigrationObject } from '@mikro-orm/core';
import { InitialSchema } from './initial-schema';
import { PremiumOrdersAndGiftCodes } from './premium-orders-and-gift-codes';

/**
 * Every migration in order, listed by hand: file discovery is not used (it breaks on Node 20).
 * The name is what the migrations table records; never rename one that has shipped.
 */
export const migrations: MigrationObject[] = [
  { name: '0001_initial_schema', class: InitialSchema },
  { name: '0006_premium_orders_and_gift_codes', class: PremiumOrdersAndGiftCodes },
];
