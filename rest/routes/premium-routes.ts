import { Router } from 'express';
import { premiumRoutes } from '../../schema/routes/premium-routes';
import { userOf, type Caller } from '../../src/identity/caller';
import type { PremiumService } from '../../src/premium/premium-service';
import { bindRoute, type Authenticate } from '../route-binder';

/** The specification's Premium table (keys live in keys-routes.ts) and PayPal's webhook. */
export function premiumRouter(premium: PremiumService, authenticate: Authenticate<Caller>): Router {
  const router = Router();
  bindRoute(router, premiumRoutes.status, authenticate, ({ caller }) => premium.status(userOf(caller).id));
  bindRoute(router, premiumRoutes.history, authenticate, ({ caller }) => premium.history(userOf(caller).id));
  bindRoute(router, premiumRoutes.createOrder, authenticate, ({ caller, body }) =>
    premium.createOrder(userOf(caller).id, body.plan, body.gift_quantity),
  );
  bindRoute(router, premiumRoutes.captureOrder, authenticate, ({ caller, body }) => premium.capturePremium(userOf(caller).id, body.order_id));
  bindRoute(router, premiumRoutes.giftCodes, authenticate, ({ caller }) => premium.giftCodes(userOf(caller).id));
  bindRoute(router, premiumRoutes.captureGiftCodes, authenticate, ({ caller, body }) => premium.captureGiftCodes(userOf(caller).id, body.order_id));
  // The specification declares no credential here yet requires a login: the credential step
  // resolves the session (optionalSession), with the CSRF rule of every session state change.
  bindRoute(router, premiumRoutes.redeemGiftCode, authenticate, ({ caller, body }) => premium.redeem(caller.kind === 'session' ? caller.user.id : null, body.code));
  bindRoute(router, premiumRoutes.paypalWebhook, authenticate, ({ req }) => premium.webhook(req.headers, req.body));
  return router;
}
