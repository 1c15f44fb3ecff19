import { Socket } from 'node:net';
import postgres from 'postgres';
import { poolBusyCode, silentConnectionCode } from './unavailable.js';

/** How long the server waits on PostgreSQL before it tells readers the handbook is unavailable. */
export type DatabaseTimeouts = {
  /** Opening a connection: TCP connect, TLS and sign-in together. */
  connectSeconds: number;
  /** One query; PostgreSQL cancels it after this (statement_timeout) and answers with an error. */
  querySeconds: number;
};

export const defaultDatabaseTimeouts: DatabaseTimeouts = { connectSeconds: 5, querySeconds: 5 };

/**
 * A connection that owes an answer this much longer than a query may run is dead: PostgreSQL would have answered, if
 * only with its statement timeout's error. It is also most of what a request waits past the query timeout when the
 * database stops answering, which README promises to keep under a second; a busy event loop is allowed for apart.
 */
const answerMarginMs = 500;

/**
 * The pool the server queries PostgreSQL through, bounded in time whatever the network does. postgres.js bounds opening
 * a connection (connect_timeout) and PostgreSQL bounds a query (statement_timeout), but nothing bounds a query on a
 * connection whose peer vanished without a word (a failover, a dropped route, a proxy holding the socket open): its
 * promise never settles (porsager/postgres#1089), and a clean close while a connection opens leaves its query pending
 * for good (porsager/postgres#1193). postgres.js offers no query timeout, so each connection gets a socket of ours
 * (its documented `socket` option) that treats both as errors, which postgres.js then handles as any broken
 * connection: the queries on it fail, and the next query opens a new one.
 */
export function createPostgresClient(url: string, timeouts: DatabaseTimeouts, options: { max: number }) {
  const limits = { connectMs: timeouts.connectSeconds * 1000, queryMs: timeouts.querySeconds * 1000 };
  const settings = {
    max: options.max,
    onnotice: () => {},
    connect_timeout: timeouts.connectSeconds,
    connection: { statement_timeout: Math.round(timeouts.querySeconds * 1000) },
    // An idle connection is closed before the silence rule, half a second later, could take it for dead; a busy one
    // is never silent that long. Reopening one costs a few milliseconds.
    idle_timeout: timeouts.querySeconds,
    // postgres.js waits up to 20 s between attempts after failures, and a query waits with it; a reader should hear
    // within the connect timeout that the database is away, so retry within a second.
    backoff: (attempt: number) => Math.min(0.1 * 2 ** attempt, 1),
    socket: (target: { host: string[]; port: number[]; path?: string }) => guardedSocket(target, limits),
    // postgres.js would ask each new connection for the database's array types, in a promise it never awaits: a
    // connection closed at that moment (a restart or failover under load) ended the process with an unhandled
    // rejection (a fault review). No query of ours sends or reads a PostgreSQL array, so none needs them.
    fetch_types: false,
  };
  // `socket` is documented in postgres.js's README but missing from its types.
  const client = postgres(url, settings as postgres.Options<Record<string, postgres.PostgresType>>);
  return withQueueDeadline(client, timeouts.querySeconds * 1000);
}

/**
 * The client, with a deadline for a query's wait for a free connection. PostgreSQL bounds a query once it runs
 * (statement_timeout), but while every connection of the pool is busy (a slow database, a locked table) the queries
 * behind them wait in postgres.js's queue without end: a review measured readers waiting 22 s with a 2 s query
 * timeout. A query still waiting after `waitMs` is cancelled (postgres.js takes it out of the queue and fails it with
 * 57014, which readers get as the 503 of a database that cannot serve right now). Drizzle sends every query outside a
 * transaction through `unsafe`; a transaction's own queries run on the connection it holds, in no queue, and the
 * transaction's own wait for that connection is bounded by `boundedBegin`.
 */
function withQueueDeadline<Client extends postgres.Sql>(client: Client, waitMs: number): Client {
  const unsafe = client.unsafe.bind(client);
  const queued = ((...args: Parameters<typeof unsafe>) => {
    const query = unsafe(...args);
    // Only looked at later: handling the query now would send it before Drizzle asks for its rows as arrays. Held
    // weakly, so a finished query's rows are not kept until then. A query handed to a connection has a state.
    const waiting = new WeakRef(query);
    setTimeout(() => {
      const still = waiting.deref();
      if (still && !(still as unknown as { state?: unknown }).state) void still.cancel();
    }, waitMs).unref();
    return query;
  }) as Client['unsafe'];
  return Object.assign(client, { unsafe: queued, begin: boundedBegin(client, waitMs) });
}

/** The error of a transaction that found no free connection in time: the 503 of a busy database. */
export class PoolBusyError extends Error {
  readonly code = poolBusyCode;
  constructor(waitMs: number) {
    super(`no PostgreSQL connection came free within ${waitMs / 1000} s`);
  }
}

/**
 * `begin` (which Drizzle's `db.transaction` calls) with a deadline for its wait for a connection, which postgres.js
 * does not bound: a review left transactions queued 10 s behind a locked table with a 1 s query timeout. postgres.js
 * cannot take a transaction out of its queue, so the caller is answered at the deadline and the transaction, should
 * a connection come free later, rolls back before its first statement: nobody is told of a write done after they
 * heard it failed.
 */
function boundedBegin<Client extends postgres.Sql>(client: Client, waitMs: number): Client['begin'] {
  const begin = client.begin.bind(client) as (...args: unknown[]) => Promise<unknown>;
  return ((...args: unknown[]) => {
    const body = args.pop() as (transaction: postgres.TransactionSql) => unknown;
    let started = false;
    let abandoned = false;
    return new Promise<unknown>((resolve, reject) => {
      const deadline = setTimeout(() => {
        if (started) return;
        abandoned = true;
        reject(new PoolBusyError(waitMs));
      }, waitMs);
      // A shutdown does not wait for it: closing the pool fails the waiting transaction anyway.
      deadline.unref();
      begin(...args, (transaction: postgres.TransactionSql) => {
        started = true;
        clearTimeout(deadline);
        if (abandoned) throw new PoolBusyError(waitMs);
        return body(transaction);
      }).then(
        (value) => {
          clearTimeout(deadline);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(deadline);
          // An abandoned transaction's rollback was already answered for.
          if (!abandoned) reject(error);
        },
      );
    });
  }) as Client['begin'];
}

/**
 * A connecting socket, returned at once: postgres.js writes to it straight away (Node holds the bytes until it
 * connects) and its connect timeout runs meanwhile. A failure to connect is an `error` event, which postgres.js
 * handles; a rejected promise here would leave its connection slot stuck for good.
 */
function guardedSocket(target: { host: string[]; port: number[]; path?: string }, limits: AnswerLimits): Socket {
  // One host: a URL naming several (postgres.js's failover list) connects to the first.
  const host = target.host[0] ?? 'localhost';
  const port = target.port[0] ?? 5432;
  const socket = new ErrorAtCloseSocket();
  // postgres.js names the connection in its errors and TLS's server name from these.
  Object.assign(socket, { host, port });
  if (target.path) socket.connect(target.path);
  else socket.connect(port, host);
  watchForAnswers(socket, limits, `PostgreSQL at ${host}:${port}`);
  // Before Node's own handler, which ends our side too: only a close we did not start is an error.
  socket.prependListener('end', () => {
    if (!socket.writableEnded) {
      socket.destroy(
        Object.assign(new Error(`PostgreSQL at ${host}:${port} closed the connection`), { code: 'CONNECTION_CLOSED' }),
      );
    }
  });
  return socket;
}

/**
 * A socket that reports a failure together with the close it causes. postgres.js stops using a connection on its
 * socket's `close`, which Node emits some milliseconds after `error`, once the handle is closed; a query handed to the
 * connection in between is written to the dead socket and never settles, since a close after an error fails nothing
 * more (seen here: the first request after a reset hung for good). Held back until the close, the error fails it too.
 */
class ErrorAtCloseSocket extends Socket {
  private heldError: unknown;

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'error') {
      this.heldError ??= args[0];
      return true;
    }
    // Once TLS has taken the socket over, its error goes to the TLS socket's listener here.
    if (event === 'close' && this.heldError !== undefined && this.listenerCount('error') > 0) {
      super.emit('error', this.heldError);
    }
    return super.emit(event, ...args);
  }
}

/** How long opening a connection (postgres.js's connect_timeout) and a query (statement_timeout) may take. */
type AnswerLimits = { connectMs: number; queryMs: number };

/**
 * Destroys the socket once PostgreSQL has sent nothing for the query timeout and the margin, counted from what we sent
 * since its last bytes, or else from the last bytes either way. Counting from our bytes matters: queries postgres.js
 * adds to a dead connection's pipeline kept a rule of silence either way from firing for as long as readers asked. A
 * socket still opening may take the connect timeout, which postgres.js enforces itself. It reads the socket's byte
 * counts rather than listening for its events: postgres.js removes every listener of the socket when it starts TLS on
 * it, and the counts go on moving under TLS. Counts read together cannot tell which came first: bytes sent in the same
 * look as an answer are taken as answered, and only the silence either way after them is counted (a query sent just as
 * an answer came may so wait up to twice as long, when more queries are piped behind it on a dead connection).
 */
function watchForAnswers(socket: Socket, limits: AnswerLimits, peer: string) {
  const openedAt = performance.now();
  const deadAfter = (since: number) => Math.max(since + limits.queryMs, openedAt + limits.connectMs) + answerMarginMs;
  let read = 0;
  let written = 0;
  let quietSince = openedAt;
  /** When we sent bytes that nothing came back for since: an answer is owed. */
  let owedSince: number | undefined;
  const watch = setInterval(
    () => {
      if (socket.destroyed) return clearInterval(watch);
      const now = performance.now();
      const answered = socket.bytesRead !== read;
      const asked = socket.bytesWritten !== written;
      read = socket.bytesRead;
      written = socket.bytesWritten;
      if (answered || asked) quietSince = now;
      if (answered) owedSince = undefined;
      else if (asked) owedSince ??= now;
      const since = owedSince ?? quietSince;
      if (now < deadAfter(since)) return;
      // Timers run before the event loop reads its sockets: bytes that came while it was busy are only counted after.
      setImmediate(() => {
        if (socket.destroyed || socket.bytesRead !== read || socket.bytesWritten !== written) return;
        clearInterval(watch);
        const what = owedSince === undefined ? 'sent nothing' : 'left a query unanswered';
        const message = `${peer} ${what} for ${Math.round((performance.now() - since) / 100) / 10} s`;
        socket.destroy(Object.assign(new Error(message), { code: silentConnectionCode }));
      });
    },
    Math.min(200, limits.queryMs / 4),
  ).unref();
}
