import { STATUS_CODES } from 'node:http';

/** The status line a native uWS answer writes (`409 Conflict`), with Node's reason phrases, as express sends them. */
export function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
}
