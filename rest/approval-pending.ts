import type { Response } from 'express';
import { RESPONDED } from './route-binder';

/**
 * A change that waits for an admin (a locked roster's transfer, a queued first post) answers 202
 * `{approval_id}` in place of its route's success: the one way every area writes that answer.
 */
export function approvalPending(res: Response, approvalId: number): typeof RESPONDED {
  res.status(202).json({ approval_id: approvalId });
  return RESPONDED;
}
