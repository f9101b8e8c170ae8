import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { LabelledTally } from './labelled-tally';

/** What the request pipeline reports of each request (its RequestRecord carries these fields and more). */
export interface ObservedRequest {
  method: string;
  /** The route template (`/api/lobbies/:code`), never the raw path. */
  route: string;
  status: number;
  durationMs: number;
}

/** How a lobby command ended: applied, refused by a rule (4xx), limited, or failed (5xx, a store down). */
export type CommandOutcome = 'ok' | 'refused' | 'rate_limited' | 'error';

export interface MetricsOptions {
  /** Node.js process defaults and event-loop lag (default on). */
  processDefaults?: boolean;
  /** Distinct route labels kept; later ones count under `other` (default 300). */
  maxRoutes?: number;
}

/** Seconds from 1 ms to 10 s: a cached read is a few ms, a slow command or a store timeout seconds. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'WS']);
/** The statement kinds a database call is labelled with; anything else is `other`. */
const STATEMENTS = new Set(['select', 'insert', 'update', 'delete', 'begin', 'commit', 'rollback', 'savepoint', 'release', 'with']);

type Reading = () => number | Promise<number>;

/**
 * This instance's Prometheus metrics, in a registry of its own (two servers in one test process
 * never share counts). Built once in the composition root; the parts it watches are handed the
 * small function each needs. Every label takes values from a fixed set or a bounded one, so a
 * client requesting ten thousand lobby codes adds no series.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #maxRoutes: number;
  readonly #routes = new Set<string>();
  /** The per-request and per-command series, counted without prom-client's per-call work (see LabelledTally). */
  readonly #requests = new LabelledTally(['method', 'route', 'status'], DURATION_BUCKETS);
  readonly #commands = new LabelledTally(['type', 'outcome']);
  readonly #liveSeconds = new LabelledTally(['operation'], DURATION_BUCKETS);
  readonly #liveErrors: Counter<'operation'>;
  readonly #dbSeconds: Histogram<'statement'>;
  readonly #dbErrors: Counter<'statement'>;
  readonly #clientLogEntries: Counter;
  readonly #clientLogSwept: Counter;
  #socketConnections: Reading = () => 0;

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry];
    this.#maxRoutes = options.maxRoutes ?? 300;
    if (options.processDefaults !== false) collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    this.#requests.register(this.registry, { name: 'http_requests_total', help: 'HTTP requests answered, by method, route template and status', type: 'counter' });
    this.#requests.register(this.registry, { name: 'http_request_duration_seconds', help: 'Time to answer an HTTP request, by method, route template and status', type: 'histogram' });
    const connections = this;
    new Gauge({
      name: 'socketio_connections', help: 'socket.io clients connected to this instance', registers,
      async collect() {
        this.set(await connections.#socketConnections());
      },
    });
    this.#commands.register(this.registry, { name: 'lobby_commands_total', help: 'Lobby commands by type and outcome (ok, refused, rate_limited, error), both doors', type: 'counter' });
    this.#liveSeconds.register(this.registry, { name: 'live_store_call_duration_seconds', help: 'Live-store (Redis or in-process) call durations by operation', type: 'histogram' });
    this.#liveErrors = new Counter({ name: 'live_store_call_errors_total', help: 'Live-store calls that failed, by operation', labelNames: ['operation'], registers });
    this.#dbSeconds = new Histogram({ name: 'db_query_duration_seconds', help: 'Database statement durations by statement kind', labelNames: ['statement'], buckets: DURATION_BUCKETS, registers });
    this.#dbErrors = new Counter({ name: 'db_query_errors_total', help: 'Database statements that failed, by statement kind', labelNames: ['statement'], registers });
    this.#clientLogEntries = new Counter({ name: 'client_log_entries_total', help: 'Client log entries stored', registers });
    this.#clientLogSwept = new Counter({ name: 'client_log_entries_deleted_total', help: 'Client log entries deleted by retention on this instance', registers });
  }

  /** One answered request (the request pipeline's observer). */
  observeRequest(record: ObservedRequest): void {
    const tally = this.#requests.at(methodLabel(record.method), this.#routeLabel(record.route), statusLabel(record.status));
    this.#requests.observe(tally, Math.max(0, record.durationMs) / 1000);
  }

  lobbyCommand(type: string, outcome: CommandOutcome): void {
    this.#commands.add(this.#commands.at(type, outcome));
  }

  liveStoreCall(operation: string, seconds: number, failed: boolean): void {
    this.#liveSeconds.observe(this.#liveSeconds.at(operation), seconds);
    if (failed) this.#liveErrors.inc({ operation });
  }

  /** One database statement, labelled by its first keyword only (never the SQL itself). */
  databaseQuery(sql: string, seconds: number, failed: boolean): void {
    const keyword = /^\s*([a-z]+)/i.exec(sql)?.[1]?.toLowerCase() ?? '';
    const statement = STATEMENTS.has(keyword) ? keyword : 'other';
    this.#dbSeconds.observe({ statement }, seconds);
    if (failed) this.#dbErrors.inc({ statement });
  }

  clientLogsStored(entries: number): void {
    this.#clientLogEntries.inc(entries);
  }

  clientLogsSwept(entries: number): void {
    this.#clientLogSwept.inc(entries);
  }

  setSocketConnections(read: Reading): void {
    this.#socketConnections = read;
  }

  /**
   * The notification outbox's backlog (rows not yet delivered), read at every scrape from the
   * callback the notifications area supplies; absent until it does, rather than a false 0.
   */
  setOutboxBacklog(read: Reading): void {
    this.registry.removeSingleMetric('notification_outbox_backlog');
    new Gauge({
      name: 'notification_outbox_backlog', help: 'Notification deliveries waiting in the outbox', registers: [this.registry],
      async collect() {
        this.set(await read());
      },
    });
  }

  /** The exposition text for a scrape. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  #routeLabel(route: string): string {
    if (this.#routes.has(route)) return route;
    if (this.#routes.size >= this.#maxRoutes) return 'other';
    this.#routes.add(route);
    return route;
  }
}

const methodLabel = (method: string): string => {
  const upper = method.toUpperCase();
  return METHODS.has(upper) ? upper : 'OTHER';
};

const statusLabel = (status: number): string => (Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : 'other');
