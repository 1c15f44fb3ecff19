import { createPostgresClient, type DatabaseTimeouts, defaultDatabaseTimeouts } from './postgres-client.js';
import { parsePostgresUrl } from './postgres-url.js';

const maintenanceLockName = 'acme-handbook:maintenance';

/** Decides, round by round, whether this instance does the maintenance that all instances share. */
export type MaintenanceLock = {
  /** True when this instance should do this round's work; false when another instance holds the round. */
  take(): Promise<boolean>;
  close(): Promise<void>;
};

/** The embedded database belongs to one server: it always does its own maintenance. */
export const soleInstanceLock: MaintenanceLock = { take: async () => true, close: async () => {} };

/**
 * For PostgreSQL shared by several instances: a session advisory lock on a connection of its own (a pooled connection
 * could release it on another connection). Each round begins by letting go and trying again at the same wall-clock
 * moment on every instance, so exactly one wins; the winner keeps the lock while its connection stays open (it closes
 * after the query timeout idle, as the server's pool does), so an instance running a little late finds it taken and
 * skips. A lock lost with a dropped connection is simply not held (the unlock then returns false) and the connection is
 * opened again by the next query. The connection is bounded in time as the server's pool is: a database that went
 * silent fails the round within the timeouts instead of holding it, and every later round, for good.
 */
export function openMaintenanceLock(
  databaseUrl: string,
  timeouts: DatabaseTimeouts = defaultDatabaseTimeouts,
): MaintenanceLock {
  const client = createPostgresClient(parsePostgresUrl(databaseUrl).url, timeouts, { max: 1 });
  return {
    async take() {
      await client`select pg_advisory_unlock(hashtext(${maintenanceLockName}))`;
      const [row] = await client<[{ locked: boolean }]>`
        select pg_try_advisory_lock(hashtext(${maintenanceLockName})) as locked`;
      return row?.locked === true;
    },
    // Letting go needs no goodbye: PostgreSQL releases the lock with the connection. A second is enough for a
    // healthy database, and a shutdown does not wait on a silent one.
    close: () => client.end({ timeout: 1 }),
  };
}
