import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresTestDatabase, type TestDatabase } from '../../test-support/test-databases.js';
import { openMaintenanceLock } from '../store/maintenance-lock.js';
import { type MaintenanceReport, runMaintenance, scheduleRounds } from './maintenance.js';

const adminUrl = process.env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const intervalMs = 500;

/** Collects what the rounds report; `count(n)` resolves once n have reported, so a test waits for rounds, not time. */
function reported<Report>() {
  const reports: Report[] = [];
  let waiting: Array<{ count: number; resolve: () => void }> = [];
  return {
    reports,
    add(report: Report) {
      reports.push(report);
      for (const waiter of waiting.filter(({ count }) => reports.length >= count)) waiter.resolve();
      waiting = waiting.filter(({ count }) => reports.length < count);
    },
    count: (count: number) =>
      reports.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve })),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

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
    const rounds = reported<{ instance: string; round: number; outcome: MaintenanceReport['outcome'] }>();
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
        rounds.add({ instance, round, outcome: (await runMaintenance(lock, tasks)).outcome });
      });
      return { lock, schedule };
    });
    for (const { schedule } of instances) schedule.start();
    // The first round at start, then five on the clock's multiples of the interval: stopped once both tried the
    // sixth, so no round is cut by the stopping.
    await rounds.count(12);
    for (const { schedule, lock } of instances) {
      await schedule.stop();
      await lock.close();
    }

    const outcomesByRound = new Map<number, string[]>();
    for (const { round, outcome } of rounds.reports) {
      outcomesByRound.set(round, [...(outcomesByRound.get(round) ?? []), outcome]);
    }
    // Never did two instances run one round. Each round was run once, whoever tried it first: on a busy machine an
    // instance may come late and skip to its next round (a round is never planned at a moment already past), so a
    // round may have been tried by one instance alone; most were tried by both, one running, the other skipping.
    const tried = [...outcomesByRound.values()].map((outcomes) => outcomes.sort());
    for (const outcomes of tried) expect([['ran'], ['ran', 'skipped']]).toContainEqual(outcomes);
    expect(tried.filter((outcomes) => outcomes.length === 2).length).toBeGreaterThanOrEqual(4);
    expect(workDone).toHaveLength(tried.length);
  });

  it('survives a database that is not there yet: the round fails, a later round runs', async () => {
    const name = `handbook_test_${randomBytes(6).toString('hex')}`;
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const lock = openMaintenanceLock(url.toString());
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    const { reports, add, count } = reported<MaintenanceReport>();
    const schedule = scheduleRounds(intervalMs, async () => {
      add(await runMaintenance(lock, [{ name: 'work', remove: async () => 1 }]));
    });
    try {
      schedule.start();
      await count(1);
      expect(reports[0]).toMatchObject({ outcome: 'failed', reason: expect.stringContaining(name) });
      await admin.unsafe(`create database "${name}"`);
      // A round already under way while it was made may still fail; the one after it starts later and finds it.
      const beforeCreated = reports.length;
      await count(beforeCreated + 2);
      expect(reports[beforeCreated + 1]).toMatchObject({ outcome: 'ran', removed: { work: 1 } });
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
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let finished = 0;
    const schedule = scheduleRounds(intervalMs, async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      finished += 1;
    });
    schedule.start();
    const stopped = schedule.stop();
    await vi.advanceTimersByTimeAsync(100);
    await stopped;
    expect(finished).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(2 * intervalMs);
    expect(finished).toBe(1);
  });

  it('plans each round on the next multiple of the interval, after the last has ended', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 10 * intervalMs + 120 });
    const planned: number[] = [];
    const schedule = scheduleRounds(intervalMs, async (plannedAt) => {
      planned.push(plannedAt);
      // The second round takes longer than an interval: the moment it overran is not run again.
      if (planned.length === 2) await new Promise((resolve) => setTimeout(resolve, intervalMs + 50));
    });
    schedule.start();
    await vi.advanceTimersByTimeAsync(4 * intervalMs);
    await schedule.stop();
    expect(planned.map((at) => at - 10 * intervalMs)).toEqual([120, 500, 1500, 2000]);
  });
});
