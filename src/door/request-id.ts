import { randomUUID } from 'node:crypto';

/** A client's id is kept when it is short and plain (it reaches logs and a response header as is). */
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id of one request: the client's `X-Request-Id` when sane, else a fresh one. */
export function requestIdOf(presented: string | undefined): string {
  return presented !== undefined && SANE_ID.test(presented) ? presented : randomUUID();
}
