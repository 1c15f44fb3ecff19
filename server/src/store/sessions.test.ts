import { beforeEach, describe, expect, it } from 'vitest';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { sessions } from './schema.js';
import {
  countActiveSessions,
  createSession,
  deleteExpiredSessions,
  deleteSession,
  findSessionByIdHash,
  type NewSession,
  touchSession,
} from './sessions.js';

const hour = 60 * 60 * 1000;

function newSession(idHash: string, overrides: Partial<NewSession> = {}): NewSession {
  return {
    idHash,
    issuer: 'https://accounts.acme.example',
    subject: 'ada-subject',
    email: 'ada@acme.example',
    emailVerified: true,
    hostedDomain: 'acme.example',
    name: 'Ada Lovelace',
    expiresAt: new Date(Date.now() + 8 * hour),
    ...overrides,
  };
}

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`sessions on ${backend.name}`, () => {
    const store = storeForSuite(backend);

    beforeEach(async () => {
      await store.db.delete(sessions);
    });

    it('finds a created session by its id hash, with every field as given', async () => {
      const expiresAt = new Date('2031-05-06T07:08:09.123Z');
      const before = Date.now();
      await createSession(store.db, newSession('a1', { expiresAt }));

      const found = await findSessionByIdHash(store.db, { idHash: 'a1' });

      expect(found).toMatchObject({
        idHash: 'a1',
        email: 'ada@acme.example',
        emailVerified: true,
        hostedDomain: 'acme.example',
        name: 'Ada Lovelace',
        expiresAt,
      });
      expect(found?.createdAt.getTime()).toBeGreaterThan(before - 5_000);
      expect(found?.lastSeenAt).toEqual(found?.createdAt);
    });

    it('keeps an account without hosted domain or name as nulls', async () => {
      await createSession(store.db, newSession('b2', { hostedDomain: null, name: null, emailVerified: false }));

      expect(await findSessionByIdHash(store.db, { idHash: 'b2' })).toMatchObject({
        hostedDomain: null,
        name: null,
        emailVerified: false,
      });
    });

    it('finds nothing for an unknown id hash', async () => {
      await createSession(store.db, newSession('c3'));

      expect(await findSessionByIdHash(store.db, { idHash: 'c4' })).toBeUndefined();
    });

    it('refuses a second session with the same id hash', async () => {
      await createSession(store.db, newSession('d4'));

      await expect(createSession(store.db, newSession('d4', { email: 'eve@acme.example' }))).rejects.toThrow();
      expect((await findSessionByIdHash(store.db, { idHash: 'd4' }))?.email).toBe('ada@acme.example');
    });

    it('moves last seen forward for the touched session only', async () => {
      await createSession(store.db, newSession('e5'));
      const other = await createSession(store.db, newSession('e6'));
      const lastSeenAt = new Date(Date.now() + hour);

      await touchSession(store.db, { idHash: 'e5', lastSeenAt });

      expect((await findSessionByIdHash(store.db, { idHash: 'e5' }))?.lastSeenAt).toEqual(lastSeenAt);
      expect((await findSessionByIdHash(store.db, { idHash: 'e6' }))?.lastSeenAt).toEqual(other.lastSeenAt);
    });

    it('deletes one session and leaves the others signed in', async () => {
      await createSession(store.db, newSession('f6'));
      await createSession(store.db, newSession('f7'));

      await deleteSession(store.db, { idHash: 'f6' });
      await deleteSession(store.db, { idHash: 'never-existed' });

      expect(await findSessionByIdHash(store.db, { idHash: 'f6' })).toBeUndefined();
      expect(await findSessionByIdHash(store.db, { idHash: 'f7' })).toBeDefined();
    });

    it('deletes sessions past their absolute expiry or idle too long, and counts them', async () => {
      const now = new Date('2030-01-01T12:00:00.000Z');
      const idleTimeoutMs = 2 * hour;
      const sessionsToCreate = [
        { idHash: 'expired', expiresAt: new Date(now.getTime() - 1), lastSeenAt: now },
        { idHash: 'expires-now', expiresAt: now, lastSeenAt: now },
        { idHash: 'idle', expiresAt: new Date(now.getTime() + hour), lastSeenAt: new Date(now.getTime() - 3 * hour) },
        {
          idHash: 'idle-exactly',
          expiresAt: new Date(now.getTime() + hour),
          lastSeenAt: new Date(now.getTime() - idleTimeoutMs),
        },
        { idHash: 'active', expiresAt: new Date(now.getTime() + 1), lastSeenAt: new Date(now.getTime() - hour) },
      ];
      for (const { idHash, expiresAt, lastSeenAt } of sessionsToCreate) {
        await createSession(store.db, newSession(idHash, { expiresAt }));
        await touchSession(store.db, { idHash, lastSeenAt });
      }

      // The metrics' active sessions are exactly those the deletion keeps.
      expect(await countActiveSessions(store.db, { now, idleTimeoutMs })).toBe(1);
      expect(await deleteExpiredSessions(store.db, { now, idleTimeoutMs })).toBe(4);
      expect(await deleteExpiredSessions(store.db, { now, idleTimeoutMs })).toBe(0);

      const remaining = await store.db.select({ idHash: sessions.idHash }).from(sessions);
      expect(remaining).toEqual([{ idHash: 'active' }]);
    });

    if (backend.persistent) {
      it('keeps sessions after the store is closed and opened again', async () => {
        const created = await createSession(store.db, newSession('g7'));

        await store.reopen();

        expect(await findSessionByIdHash(store.db, { idHash: 'g7' })).toEqual({ ...created, current: null });
      });
    }
  });
}
