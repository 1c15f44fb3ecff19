import postgres from 'postgres';
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
 * could release it on another connection). The winner keeps it until its next round, so an instance that starts or
 * runs late in the round finds it taken and skips. Each round begins by letting go and trying again at the same
 * wall-clock moment on every instance, so exactly one wins; a lock lost with a dropped connection is simply not held
 * (the unlock then returns false) and the connection is opened again by the next query.
 */
export function openMaintenanceLock(databaseUrl: string): MaintenanceLock {
  const client = postgres(parsePostgresUrl(databaseUrl).url, { max: 1, onnotice: () => {} });
  return {
    async take() {
      await client`select pg_advisory_unlock(hashtext(${maintenanceLockName}))`;
      const [row] = await client<[{ locked: boolean }]>`
        select pg_try_advisory_lock(hashtext(${maintenanceLockName})) as locked`;
      return row?.locked === true;
    },
    close: () => client.end({ timeout: 5 }),
  };
}
