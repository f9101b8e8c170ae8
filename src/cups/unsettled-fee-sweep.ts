import type { Logger } from 'pino';
import { machineTime } from '../clock/machine-time';
import type { CupRepository } from '../db/cup-repository';
import type { CupPayments } from './cup-payments';

/** Fees looked at per pass at most. */
const BATCH = 20;
/** The sweep looks at most this often (or once per grace, when that is shorter): its fees are minutes old, the refund worker's pass is every second. */
const SWEEP_EVERY_MAX_MS = 30_000;

/**
 * Money fees nobody settled: an entry order PayPal captured whose entry was never made (the
 * process stopped between the capture and the entry, and the webhook is off or lost) would hold
 * the buyer's money with no place. Past a grace (CUP_FEE_GRACE_SECONDS, longer than a buyer's
 * capture takes) each is claimed for a look, settled through the same path as a capture (entered,
 * or refunded when the team can no longer enter), and looked at again later if still unsettled.
 */
export class UnsettledFeeSweep {
  #lastPassAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: {
      repo: CupRepository;
      payments: Pick<CupPayments, 'reconcile'>;
      graceMs: number;
      logger: Pick<Logger, 'warn'>;
    },
  ) {}

  async pass(): Promise<void> {
    const now = machineTime.elapsed();
    if (now - this.#lastPassAt < Math.min(this.deps.graceMs, SWEEP_EVERY_MAX_MS)) return;
    this.#lastPassAt = now;
    for (const fee of await this.deps.repo.claimUnsettledFees(this.deps.graceMs, BATCH)) {
      try {
        await this.deps.payments.reconcile(fee);
      } catch (error) {
        // PayPal unreachable or a database hiccup: the claim has moved the next look out.
        this.deps.logger.warn({ err: error, orderId: fee.orderId }, 'stuck cup fee not settled; it is looked at again later');
      }
    }
  }
}
