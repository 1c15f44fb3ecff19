import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testBackends } from '../../test-support/test-databases.js';
import { openStore, type Store } from '../store/database.js';
import { type MaintenanceLock, openMaintenanceLock, soleInstanceLock } from '../store/maintenance-lock.js';
import { questions, rateLimitWindows, runningQuestionSlots, sessions } from '../store/schema.js';
import { createSession, touchSession } from '../store/sessions.js';
import { type MaintenanceReport, type MaintenanceTask, maintenanceTasks, runMaintenance } from './maintenance.js';

const hour = 3_600_000;
const day = 24 * hour;
const config = { sessionIdleTimeoutMs: 7 * day, questionLogDays: 90 };

async function addSession(
  store: Store,
  idHash: string,
  { expiresIn, idleFor }: { expiresIn: number; idleFor: number },
) {
  const now = Date.now();
  await createSession(store.db, {
    idHash,
    issuer: 'https://accounts.acme.dev',
    subject: 'ada',
    email: 'ada@acme.dev',
    emailVerified: true,
    hostedDomain: 'acme.dev',
    name: null,
    expiresAt: new Date(now + expiresIn),
  });
  await touchSession(store.db, { idHash, lastSeenAt: new Date(now - idleFor) });
}

async function addQuestion(store: Store, answerMessageId: string, askedDaysAgo: number) {
  await store.db.insert(questions).values({
    id: answerMessageId,
    reader: 'oidc:https://accounts.acme.dev#ada',
    question: 'How do I roll back?',
    mode: 'docs-only',
    covered: true,
    answerMessageId,
    createdAt: new Date(Date.now() - askedDaysAgo * day),
  });
}

const backends = testBackends.filter((backend) => backend.name !== 'PGlite on disk');

for (const backend of backends) {
  describe.skipIf(backend.skipped)(`maintenance on ${backend.name}`, () => {
    let database: TestDatabase;
    let store: Store;
    let lock: MaintenanceLock;
    beforeAll(async () => {
      database = await backend.create();
      store = await openStore(database.options);
      const url = database.options.databaseUrl;
      lock = url ? openMaintenanceLock(url) : soleInstanceLock;
    });
    afterAll(async () => {
      await lock?.close();
      await store?.close();
      await database?.drop();
    });
    beforeEach(async () => {
      await store.db.delete(sessions);
      await store.db.delete(questions);
      await store.db.delete(rateLimitWindows);
      await store.db.delete(runningQuestionSlots);
    });

    it('removes expired and idle sessions and questions past the retention, and keeps the live ones', async () => {
      await addSession(store, 'expired', { expiresIn: -hour, idleFor: 0 });
      await addSession(store, 'idle', { expiresIn: 30 * day, idleFor: 8 * day });
      await addSession(store, 'live', { expiresIn: 30 * day, idleFor: hour });
      await addQuestion(store, 'old', 91);
      await addQuestion(store, 'recent', 89);

      const report = await runMaintenance(lock, maintenanceTasks(store.db, config));

      expect(report).toMatchObject({ outcome: 'ran', removed: { expired_sessions: 2, old_questions: 1 }, failed: {} });
      expect(await store.db.select({ idHash: sessions.idHash }).from(sessions)).toEqual([{ idHash: 'live' }]);
      expect(await store.db.select({ id: questions.id }).from(questions)).toEqual([{ id: 'recent' }]);
      expect(await runMaintenance(lock, maintenanceTasks(store.db, config))).toMatchObject({
        removed: { expired_sessions: 0, old_questions: 0 },
      });
    });

    it('removes ended limit windows and expired running-question slots, and keeps those in use', async () => {
      const at = (ms: number) => new Date(Date.now() + ms);
      await store.db.insert(rateLimitWindows).values([
        { key: 'ask:ended', count: 20, endsAt: at(-hour) },
        { key: 'ask:current', count: 3, endsAt: at(30_000) },
      ]);
      await store.db.insert(runningQuestionSlots).values([
        { id: 'left-by-a-killed-instance', reader: 'a', expiresAt: at(-hour) },
        { id: 'running', reader: 'b', expiresAt: at(60_000) },
      ]);

      const report = await runMaintenance(lock, maintenanceTasks(store.db, config));

      expect(report).toMatchObject({ outcome: 'ran', removed: { ended_limits: 2 }, failed: {} });
      expect(await store.db.select({ key: rateLimitWindows.key }).from(rateLimitWindows)).toEqual([
        { key: 'ask:current' },
      ]);
      expect(await store.db.select({ id: runningQuestionSlots.id }).from(runningQuestionSlots)).toEqual([
        { id: 'running' },
      ]);
    });

    it('reports a task that fails and still runs the others', async () => {
      await addQuestion(store, 'old', 120);
      const broken: MaintenanceTask = {
        name: 'broken',
        remove: () => Promise.reject(new Error('relation "gone" does not exist')),
      };
      const report = await runMaintenance(lock, [broken, ...maintenanceTasks(store.db, config)]);
      expect(report).toMatchObject({
        outcome: 'ran',
        removed: { old_questions: 1 },
        failed: { broken: 'relation "gone" does not exist' },
      });
    });
  });
}

describe('runMaintenance without its lock', () => {
  it('reports a round it could not start (database down) instead of throwing', async () => {
    const unreachable: MaintenanceLock = {
      take: () => Promise.reject(Object.assign(new Error(''), { code: 'ECONNREFUSED' })),
      close: async () => {},
    };
    let ran = false;
    const tasks = [
      {
        name: 'anything',
        remove: async () => {
          ran = true;
          return 0;
        },
      },
    ];
    expect(await runMaintenance(unreachable, tasks)).toEqual<MaintenanceReport>({
      outcome: 'failed',
      reason: 'ECONNREFUSED',
    });
    expect(ran).toBe(false);
  });
});
