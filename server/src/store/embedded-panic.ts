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

const guardedMethods = new Set<PropertyKey>(['query', 'exec', 'transaction', 'sql']);

/**
 * PGlite, refusing every query from its first PANIC on. PostgreSQL restarts itself after one; PGlite runs in this
 * process and cannot, and its next query spins for ever on the event loop (measured: after a failed write to its log,
 * nothing answered, not even /healthz, and SIGTERM went unheard). `onPanic` is told once, so the server can end and
 * be started again: the database then replays its log. `panicked` says whether it has happened, for closing without
 * touching the engine again.
 */
export function refuseAfterPanic(client: PGlite, onPanic: (error: unknown) => void) {
  let panic: unknown;
  // One call at a time, each looking for a panic when its turn comes: a call made while another runs would otherwise
  // pass the look, wait in PGlite's own queue, and reach the engine after the panic. PGlite runs one call at a time
  // anyway (a query waits for a running transaction), so nothing is slower.
  let turn: Promise<unknown> = Promise.resolve();
  const guarded = new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!guardedMethods.has(property)) return value.bind(target);
      return (...args: unknown[]) => {
        const call = turn.then(async () => {
          if (panic !== undefined) throw new EmbeddedDatabaseStopped(panic);
          try {
            return await value.apply(target, args);
          } catch (error) {
            if (panic === undefined && isPanic(error)) {
              panic = error;
              onPanic(error);
            }
            throw error;
          }
        });
        turn = call.catch(() => {});
        return call;
      };
    },
  });
  return { client: guarded, panicked: () => panic !== undefined };
}
