import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase, type TestDatabase } from '../../test-support/test-databases.js';
import { openMaintenanceLock } from '../store/maintenance-lock.js';
import { type MaintenanceReport, runMaintenance, scheduleRounds } from './maintenance.js';

const adminUrl = process.env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const intervalMs = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(process.env.SKIP_POSTGRES_TESTS === '1')('scheduled maintenance on one PostgreSQL database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createPostgresTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('runs the work once per round across two instances, whichever started first', async () => {
    const url = database.options.databaseUrl ?? '';
    const rounds: Array<{ instance: string; round: number; outcome: MaintenanceReport['outcome'] }> = [];
    const workDone: string[] = [];
    const instances = ['a', 'b'].map((instance) => {
      const lock = openMaintenanceLock(url);
      const tasks = [
        {
          name: 'work',
          remove: async () => {
            workDone.push(instance);
            return 0;
          },
        },
      ];
      const schedule = scheduleRounds(intervalMs, async (plannedAt) => {
        const round = Math.floor(plannedAt / intervalMs);
        rounds.push({ instance, round, outcome: (await runMaintenance(lock, tasks)).outcome });
      });
      return { lock, schedule };
    });
    for (const { schedule } of instances) schedule.start();
    await sleep(6 * intervalMs);
    for (const { schedule, lock } of instances) {
      await schedule.stop();
      await lock.close();
    }

    const outcomesByRound = new Map<number, string[]>();
    for (const { round, outcome } of rounds)
      outcomesByRound.set(round, [...(outcomesByRound.get(round) ?? []), outcome]);
    expect(outcomesByRound.size).toBeGreaterThanOrEqual(5);
    const byRound = [...outcomesByRound.entries()].sort(([first], [second]) => first - second);
    // Both tried each round (the first, at start, included); one ran, the other skipped. The last round may have been
    // cut by stopping, after one instance tried it: there it is enough that nobody ran it twice.
    for (const [, outcomes] of byRound.slice(0, -1)) expect(outcomes.sort()).toEqual(['ran', 'skipped']);
    for (const [, outcomes] of byRound) expect(outcomes.filter((outcome) => outcome === 'ran').length).toBeLessThan(2);
    expect(workDone).toHaveLength(rounds.filter(({ outcome }) => outcome === 'ran').length);
  });

  it('survives a database that is not there yet: the round fails, a later round runs', async () => {
    const name = `handbook_test_${randomBytes(6).toString('hex')}`;
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const lock = openMaintenanceLock(url.toString());
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    const reports: MaintenanceReport[] = [];
    const schedule = scheduleRounds(intervalMs, async () => {
      reports.push(await runMaintenance(lock, [{ name: 'work', remove: async () => 1 }]));
    });
    try {
      schedule.start();
      await expect.poll(() => reports.length).toBeGreaterThanOrEqual(1);
      expect(reports[0]).toMatchObject({ outcome: 'failed', reason: expect.stringContaining(name) });
      await admin.unsafe(`create database "${name}"`);
      await expect.poll(() => reports.at(-1)?.outcome, { timeout: 5_000 }).toBe('ran');
      expect(reports.at(-1)).toMatchObject({ removed: { work: 1 } });
    } finally {
      await schedule.stop();
      await lock.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    }
  });
});

describe('the maintenance lock on a database gone silent', () => {
  it('failsTheRoundWithinTheTimeouts, and closing does not wait on it', async () => {
    // Accepts connections and never says a word: a network that drops everything.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const lock = openMaintenanceLock(`postgres://postgres@127.0.0.1:${port}/handbook`, {
      connectSeconds: 1,
      querySeconds: 1,
    });
    try {
      const started = performance.now();
      const report = await runMaintenance(lock, [{ name: 'work', remove: async () => 1 }]);
      expect(report).toMatchObject({ outcome: 'failed' });
      // Within the connect timeout and postgres.js's retries of it, far from "never".
      expect(performance.now() - started).toBeLessThan(5000);
      const closing = performance.now();
      await lock.close();
      expect(performance.now() - closing).toBeLessThan(1500);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 15_000);
});

describe('scheduleRounds', () => {
  it('lets a round under way finish before stopping, and plans none after', async () => {
    let finished = 0;
    const schedule = scheduleRounds(intervalMs, async () => {
      await sleep(100);
      finished += 1;
    });
    schedule.start();
    await schedule.stop();
    expect(finished).toBe(1);
    await sleep(2 * intervalMs);
    expect(finished).toBe(1);
  });
});
