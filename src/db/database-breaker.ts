
/** How often a tripped breaker asks Postgres whether it answers again. */
const PROBE_EVERY_MS = 250;

/** What of pg's pool and client this uses (pg ships no types here). */
export interface PoolClient {
  query(...args: unknown[]): unknown;
  release(error?: Error): void;
}
export interface Pool {
  connect(...args: unknown[]): unknown;
}

/**
 * Fail-fast for a Postgres that stopped answering. Each call is bounded (connection, statement),
 * but a request makes several in a row, so a silent database held one for several bounds (a join
 * 9 s, /auth/me 7 s, with a 3 s bound). Once one call meets "unavailable", every later one is
 * refused at once (Postgres class 08, which the HTTP layer answers 503 with Retry-After) until a
 * probe of its own gets an answer: a request then waits at most one bound.
 */
export class DatabaseBreaker {
  #open = false;
  /** Calls of `withoutTransactionDeadline` under way: transactions begun meanwhile have no deadline. */
  #unbounded = 0;

  /**
   * `transactionMs`: the deadline of one transaction as a whole (0: none). Postgres 15 has no
   * `transaction_timeout`; each statement is bounded, and `idle_in_transaction_session_timeout`
   * bounds the gaps, but a transaction of many quick statements was bounded by nothing. Once its
   * deadline passed, its next statement fails at once (57014, answered 503) but a ROLLBACK.
   */
  constructor(private readonly transactionMs = 0) {}

  get open(): boolean {
    return this.#open;
  }

  /**
   * Runs `work` with no deadline on the transactions it begins: the schema migrations at start-up,
   * which a large database may need longer for than a request's bound, and which serve no request.
   */
  async withoutTransactionDeadline<T>(work: () => Promise<T>): Promise<T> {
    this.#unbounded += 1;
    try {
      return await work();
    } finally {
      this.#unbounded -= 1;
    }
  }

  /** Wraps the pool's promise `connect` and the queries of the clients it hands out. */
  attach(pool: Pool): void {
    const original = pool.connect.bind(pool);
    const connect = () => original() as Promise<PoolClient>;
    pool.connect = (...args: unknown[]) => {
      // The callback form is pg's own (Kysely uses the promise form).
      if (args.length > 0) return original(...args);
      if (this.#open) return Promise.reject(unavailable());
      return connect().then(
        (client) => this.#watch(client, connect),
        (error: unknown) => {
          this.#trip(error, connect);
          throw error;
        },
      );
    };
  }

  #watch(client: PoolClient, connect: () => Promise<PoolClient>): PoolClient {
    const marked = client as PoolClient & { [WATCHED]?: true };
    if (marked[WATCHED]) return client;
    marked[WATCHED] = true;
    const query = client.query.bind(client);
    let deadline: number | null = null;
    client.query = (...args: unknown[]) => {
      const text = statementText(args[0]);
      if (/^\s*(begin|start transaction)\b/i.test(text)) deadline = this.transactionMs > 0 && this.#unbounded === 0 ? performance.now() + this.transactionMs : null;
      else if (/^\s*(commit|rollback|end)\b/i.test(text)) deadline = null;
      else if (deadline !== null && performance.now() > deadline) return Promise.reject(transactionTooLong(this.transactionMs));
      const result = query(...args);
      if (!isThenable(result)) return result;
      return result.then(undefined, (error: unknown) => {
        this.#trip(error, connect);
        throw error;
      });
    };
    return client;
  }

  #trip(error: unknown, connect: () => Promise<PoolClient>): void {
    if (this.#open || !isStall(error)) return;
    this.#open = true;
    const probe = async () => {
      try {
        const client = await connect();
        try {
          await client.query('select 1');
          client.release();
        } catch (failure) {
          client.release(failure as Error);
          throw failure;
        }
        this.#open = false;
      } catch {
        setTimeout(() => void probe(), PROBE_EVERY_MS).unref();
      }
    };
    setTimeout(() => void probe(), PROBE_EVERY_MS).unref();
  }
}

/**
 * Only what says the connection itself is gone or silent trips the breaker: one statement's own
 * failure (a cancelled query, a resource limit, classes 53 and 57) says nothing of the next one.
 */
const STALL_MESSAGES = /Query read timeout|timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error/;
function isStall(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('08') || ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code))) return true;
    if (STALL_MESSAGES.test(e.message)) return true;
  }
  return false;
}

const WATCHED = Symbol('watched by the database breaker');

function isThenable(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** A query's text, whether pg was given a string or a config object. */
function statementText(first: unknown): string {
  if (typeof first === 'string') return first;
  const text = (first as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

function transactionTooLong(ms: number): Error {
  // 57014 (query_canceled), as the statement timeout's: answered 503 with Retry-After; no trip.
  return Object.assign(new Error(`transaction ran past its ${ms} ms deadline`), { code: '57014' });
}

function unavailable(): Error {
  // 08006 (connection failure): what the error mapping answers 503 with Retry-After.
  return Object.assign(new Error('database unavailable: refusing at once until it answers again'), { code: '08006' });
}
