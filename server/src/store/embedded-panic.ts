import type { PGlite } from '@electric-sql/pglite';

/** PostgreSQL's gravest level: the database server must start again (a write to its log failed, say). */
const isPanic = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { severity?: unknown }).severity === 'PANIC';

/** What every query gets once the embedded database has panicked: class 58 (system error), so a 503 to readers. */
export class EmbeddedDatabaseStopped extends Error {
  readonly code = '58000';
  constructor(cause: unknown) {
    super('The embedded database stopped after a failed write to its files; the server must start again', { cause });
    this.name = 'EmbeddedDatabaseStopped';
  }
}

/**
 * Makes PGlite refuse every call into its engine from its first PANIC on. PostgreSQL restarts itself after one; PGlite
 * runs in this process and cannot, and any later call into its engine loops for ever, synchronously, on the event loop
 * (nothing answers, not even /healthz, and SIGTERM goes unheard). PGlite makes such a call itself, at once: each query
 * sends a Sync after its statement whatever happened to it, and a failed transaction a ROLLBACK. A statement that
 * panics inside a transaction (its COMMIT, say) would never even return its error.
 *
 * So the guard sits where every call, PGlite's own included, reaches the engine (`execProtocolRawSync`), on the
 * instance itself rather than on a wrapper around it: PGlite calls its own methods. Its queue keeps one call at a
 * time, so a call waiting behind the panicking one is refused when its turn comes. `onPanic` is told once, so the
 * server can end and be started again: the database then replays its log. `panicked` says whether it has happened,
 * for closing without touching the engine again.
 */
export function refuseAfterPanic(client: PGlite, onPanic: (error: unknown) => void) {
  let panic: unknown;
  const callEngine = client.execProtocolRawSync.bind(client);
  client.execProtocolRawSync = (message) => {
    if (panic !== undefined) throw new EmbeddedDatabaseStopped(panic);
    return callEngine(message);
  };
  // Every query, statement and transaction of PGlite's reads the engine's answers here, and the PANIC among them.
  const readAnswers = client.execProtocolStream.bind(client);
  client.execProtocolStream = async (...args) => {
    try {
      return await readAnswers(...args);
    } catch (error) {
      if (panic === undefined && isPanic(error)) {
        panic = error;
        onPanic(error);
      }
      throw error;
    }
  };
  return { panicked: () => panic !== undefined };
}
