/**
 * Whether an error from a query means "the database cannot be reached or did not answer in
 * time", as opposed to a fault in the query or the data. The HTTP layer answers the first 503
 * (retry later) and the second 500. Postgres classes 08 (connection exception), 53 (insufficient
 * resources), 57 (operator intervention, which includes the statement timeout's 57014) and the
 * pool's and driver's own timeouts and broken sockets are "unavailable".
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(08|53|57)/.test(code)) return true;
    if (typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
    if (UNREACHABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

const UNREACHABLE_MESSAGES =
  /Query read timeout|timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|ECONNREFUSED|ECONNRESET|database statement timed out/;
