import * as v from 'valibot';
import { ClientLogBody, ClientLogPage, ClientLogQuery, MAX_CLIENT_LOG_BODY_BYTES } from '../client-logs';
import { defineRoute, type Credential } from '../route-contract';

/** The Prometheus text exposition format prom-client writes. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export const observabilityRoutes = {
  submitClientLogs: defineRoute({
    operationId: 'submitClientLogs', method: 'post', path: '/api/logs/client', tag: 'Client logs', auth: [],
    summary: 'Client telemetry sink: the web client, the game plugin and bots send their log entries here',
    description:
      'Anonymous; a session cookie, when present and sent from this site, is recorded as the entries\' user. ' +
      'The body is JSON, sent as `application/json` or as `text/plain` (what `navigator.sendBeacon` sends: this route only). ' +
      `1 to 100 entries; a body over ${MAX_CLIENT_LOG_BODY_BYTES} bytes is 413. Each client address and each user may send ` +
      '`CLIENT_LOG_RATE_LIMIT` requests a minute (default 30), counted across instances: 429 with Retry-After beyond it. ' +
      'Entries are stored with the time received, the user, an HMAC of the client address and the user agent, in one ' +
      'insert per request: a 204 means every entry is written. Kept `CLIENT_LOG_RETENTION_DAYS` (default 14).',
    body: ClientLogBody,
    bodyExample: {
      entries: [
        { level: 'error', message: 'socket reconnect failed', at: '2026-11-25T06:00:00.000Z', source: 'web', context: { attempt: 3 } },
      ],
    },
    success: { status: 204, description: 'Every entry stored' }, errors: [400, 413, 415, 429],
  }),
  listClientLogs: defineRoute({
    operationId: 'listClientLogs', method: 'get', path: '/api/admin/logs', tag: 'Client logs',
    auth: ['session', 'admin'] as Credential[], role: 'admin',
    summary: 'Stored client log entries, newest first, filtered by level, source, time and text',
    description:
      'An admin session or admin key. `level` and `source` match exactly, `since` keeps entries received at or after it, ' +
      '`q` keeps messages containing it (ignoring case). `page` is 1-based (default 1), `limit` defaults to 20, at most 100; ' +
      'out-of-range values are 400.',
    query: ClientLogQuery,
    success: { status: 200, schema: ClientLogPage }, errors: [400, 401, 403],
  }),
  metrics: defineRoute({
    operationId: 'getMetrics', method: 'get', path: '/metrics', tag: 'Operations', auth: [],
    summary: 'Prometheus metrics of this instance (text format)',
    description:
      'HTTP requests by route template, method and status (a duration histogram and a counter), socket.io connections, ' +
      'lobby commands by type and outcome, live-store and database call durations and errors, the notification outbox ' +
      'backlog, client log intake, event-loop lag and the Node.js process defaults. With `METRICS_TOKEN` set it needs ' +
      '`Authorization: Bearer <token>` (401 otherwise); unset, it answers loopback clients only (403 otherwise).',
    success: { status: 200, schema: v.string(), contentType: METRICS_CONTENT_TYPE }, errors: [401, 403],
  }),
};
