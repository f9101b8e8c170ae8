import { Router } from 'express';
import { cupsRoutes as routes } from '../../schema/routes/cups-routes';
import type { CupPayments } from '../../src/cups/cup-payments';
import type { CupPayouts } from '../../src/cups/cup-payouts';
import type { CupReads } from '../../src/cups/cup-reads';
import { userOf, type Caller } from '../../src/identity/caller';
import { bindRoute, type Authenticate } from '../route-binder';

export interface CupsRouterDeps {
  authenticate: Authenticate<Caller>;
  reads: CupReads;
  payments: CupPayments;
  payouts: CupPayouts;
}

export function cupsRouter({ authenticate, reads, payments, payouts }: CupsRouterDeps): Router {
  const router = Router();
  bindRoute(router, routes.list, authenticate, ({ query }) => reads.list(query.page, query.limit));
  bindRoute(router, routes.get, authenticate, ({ params }) => reads.cup(params.id));
  bindRoute(router, routes.capture, authenticate, ({ caller, params, body }) => payments.capture(params.id, userOf(caller).id, body.order_id));
  bindRoute(router, routes.payouts, authenticate, ({ caller, params }) => payouts.pay(params.id, userOf(caller).id));
  bindRoute(router, routes.payoutPaid, authenticate, ({ caller, params, body }) =>
    payouts.markPaid(params.id, params.payout, body.reference, userOf(caller).id),
  );
  bindRoute(router, routes.refunds, authenticate, ({ params }) => reads.refunds(params.id));
  return router;
}
