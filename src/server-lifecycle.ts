import type { NextFunction, Request, Response } from 'express';

/**
 * Counts requests in flight through express so that a graceful shutdown can stop accepting, then
 * wait for the ones already running to answer before closing the database under them.
 */
export class InFlight {
  private active = 0;
  private waiters: Array<() => void> = [];

  readonly middleware = (_req: Request, res: Response, next: NextFunction): void => {
    this.active++;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      this.active--;
      if (this.active === 0) for (const wake of this.waiters.splice(0)) wake();
    };
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };

  get count(): number {
    return this.active;
  }

  /** Resolves when nothing is in flight, or after `timeoutMs` with what is left. */
  drain(timeoutMs: number): Promise<number> {
    if (this.active === 0) return Promise.resolve(0);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.active), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(0);
      });
    });
  }
}
