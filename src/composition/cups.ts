import type { Logger } from 'pino';
import type { DoorRoutes } from '../door/door-routes';
import type { Caller } from '../identity/caller';
import type { CupRepository } from '../db/cup-repository';
import type { TournamentRepository } from '../db/tournament-repository';
import { cupsRouter } from '../../rest/routes/cups-routes';
import type { Authenticate } from '../../rest/route-binder';
import type { CupEntryFees } from '../cups/cup-fees';
import { CupPayments } from '../cups/cup-payments';
import { CupPayouts } from '../cups/cup-payouts';
import { CupReads } from '../cups/cup-reads';
import { RefundWorker } from '../cups/refund-worker';
import { UnsettledFeeSweep } from '../cups/unsettled-fee-sweep';
import type { PayPalClient } from '../integrations/paypal/paypal-client';
import type { WebhookEvent } from '../integrations/paypal/paypal-wire';
import type { TournamentCommands } from '../tournaments/tournament-commands';
import type { TournamentReads } from '../tournaments/tournament-reads';

/** How often the refund worker looks for refunds due for a retry when nothing kicks it. */
const REFUND_POLL_MS = 1_000;

export interface CupsAssemblyDeps {
  repo: CupRepository;
  tournaments: TournamentRepository;
  /** The cups area's part of the tournaments' transactions: built first, handed to assembleTournaments as its fee port. */
  fees: CupEntryFees;
  paypal: PayPalClient | null;
  /** The PayPal client's timeout: a refund claim outlasts a call and its retry. */
  paypalTimeoutMs: number;
  publicUrl: string;
  /** CUP_FEE_GRACE_SECONDS: how old an unsettled paid fee is before the sweep settles it. */
  feeGraceMs: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  authenticate: Authenticate<Caller>;
  commands: TournamentCommands;
  reads: TournamentReads;
}

export interface CupsAssembly {
  router: DoorRoutes;
  orderEntry: CupPayments['orderEntry'];
  /** For the premium webhook: true when the event was a cup order's. */
  webhookEvent(event: WebhookEvent): Promise<boolean>;
  /** After a tournament change committed: sends the refunds it queued. */
  afterChange(): void;
  close(): Promise<void>;
}

/** Cups: money entries and captures, the refund worker, payouts and reads, the REST router. */
export function assembleCups(deps: CupsAssemblyDeps): CupsAssembly {
  const { tournaments } = deps;
  const worker: RefundWorker = new RefundWorker({
    repo: deps.repo, paypal: deps.paypal, logger: deps.logger, pollMs: REFUND_POLL_MS, leaseMs: 4 * deps.paypalTimeoutMs + 5_000,
    sweep: () => sweep.pass(),
  });
  const payments: CupPayments = new CupPayments({
    repo: deps.repo, tournaments, commands: deps.commands, reads: deps.reads, paypal: deps.paypal, publicUrl: deps.publicUrl, logger: deps.logger,
    refundsQueued: () => worker.kick(),
  });
  const sweep = new UnsettledFeeSweep({ repo: deps.repo, payments, graceMs: deps.feeGraceMs, logger: deps.logger });
  const reads = new CupReads(deps.repo, deps.reads);
  const payouts = new CupPayouts(deps.repo, tournaments);
  worker.start();
  // Refunds queued before a restart (or by an instance that stopped) are sent now.
  worker.kick();
  return {
    router: cupsRouter({ authenticate: deps.authenticate, reads, payments, payouts }),
    orderEntry: (tournamentId, teamId, userId) => payments.orderEntry(tournamentId, teamId, userId),
    webhookEvent: (event) => payments.webhookEvent(event),
    afterChange: () => {
      if (deps.fees.takeQueuedRefund()) worker.kick();
    },
    close: () => worker.close(),
  };
}
