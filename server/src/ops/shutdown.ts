import type { Socket } from 'node:net';
import { constants } from 'node:os';
import type { FastifyInstance } from 'fastify';

/** A repeat this soon is the same request: in a terminal, Ctrl-C reaches the server both directly and through npm. */
const echoMs = 1000;
/** After the drain, how long connections still open (a slow download) get before they are cut. */
const connectionsGraceMs = 5000;

/**
 * SIGTERM, SIGINT or SIGHUP (the terminal it ran in closed) stops the server cleanly: it stops taking
 * connections (a balancer retries a refused one elsewhere), serves what reaches it on those still open with
 * `Connection: close`, lets running answers finish for up to `drainMs` and stops the rest, closes the store, and exits
 * with 0. A second signal exits at once. Should anything hang past the drain, open connections are cut, and at last the
 * process exits with 1. Every exit is bounded: the log's flush at exit gives up on an output nobody reads or that
 * fails (see log-destination.ts), so neither exit can be held by the log sink.
 */
export function stopOnSignals(app: FastifyInstance, { drainMs }: { drainMs: number }) {
  let stoppingSince: number | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stoppingSince !== undefined) {
      if (performance.now() - stoppingSince < echoMs) return;
      app.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(128 + (constants.signals[signal] ?? 0));
    }
    stoppingSince = performance.now();
    app.log.info({ signal, drainSeconds: drainMs / 1000 }, 'shutting down');
    setTimeout(() => {
      app.log.warn('shutdown: cutting the connections still open');
      app.server.closeAllConnections();
    }, drainMs + connectionsGraceMs).unref();
    setTimeout(
      () => {
        app.log.error('shutdown did not finish; exiting');
        process.exit(1);
      },
      drainMs + 2 * connectionsGraceMs,
    ).unref();
    app.close().then(
      () => {
        app.log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
}

/** While the server stops, how often connections with no request under way are closed. */
const idleSweepMs = 100;

/**
 * Once the server is closing, a connection with no request under way is closed at once (and one that falls idle later,
 * within a tenth of a second) instead of holding the shutdown until the drain's bound cuts it: a keep-alive one whose
 * last answer has ended (an answer streamed through the drain, say), and one that has never sent a byte. Node's
 * `closeIdleConnections` closes only the first kind, and only those idle when it is called: to node, a connection that
 * has sent nothing has a request just begun. A request whose bytes have started to arrive keeps its drain.
 */
export function closeConnectionsAsTheyFallIdle(app: FastifyInstance) {
  const open = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  const closeIdle = () => {
    app.server.closeIdleConnections();
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
  };
  let sweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closeIdle();
    sweep = setInterval(closeIdle, idleSweepMs);
    sweep.unref();
  });
  app.addHook('onClose', async () => clearInterval(sweep));
}
