import { describe, expect, it } from 'vitest';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { createSession } from '../store/sessions.js';
import { createSessionService } from './session-service.js';

const embedded = testBackends.filter((backend) => backend.name === 'PGlite in memory');

for (const backend of embedded) {
  describe(`session service on ${backend.name}`, () => {
    const store = storeForSuite(backend);
    const config = { sessionIdleTimeoutMs: 8 * 3_600_000 };

    const row = (idHash: string) => ({
      idHash,
      issuer: 'https://accounts.acme.example',
      subject: `${idHash}-subject`,
      email: `${idHash}@acme.example`,
      emailVerified: true,
      hostedDomain: 'acme.example',
      name: null,
      expiresAt: new Date(Date.now() + 3_600_000),
    });

    async function started(idHash: string) {
      const sessions = createSessionService({ db: store.db, config });
      await sessions.start(row(idHash), { claimLegacyRows: false });
      return sessions;
    }

    it('serves a found session from its cache, without waiting', async () => {
      const sessions = await started('cached');
      expect(sessions.peek('cached')).toBeUndefined();
      expect(await sessions.find('cached')).toMatchObject({ email: 'cached@acme.example' });
      expect(sessions.peek('cached')).toMatchObject({ email: 'cached@acme.example' });
    });

    it('does not cache again a session read while it was being ended (a sign-out during a page load)', async () => {
      const sessions = await started('leaving');
      const readDuringSignOut = sessions.find('leaving');
      await sessions.end('leaving');
      await readDuringSignOut;
      expect(sessions.peek('leaving')).toBeUndefined();
      expect(await sessions.find('leaving')).toBeUndefined();
    });

    it('refuses an id the store did not have without reading it again, for as long as a cached row lives', async () => {
      let clock = Date.now();
      const sessions = createSessionService({ db: store.db, config, cacheTtlMs: 200, now: () => clock });
      expect(sessions.isGone('forged')).toBe(false);
      expect(await sessions.find('forged')).toBeUndefined();
      expect(sessions.isGone('forged')).toBe(true);
      // Planted behind the service's back (sign-in never reuses an id): not read while the id is known to be gone.
      await createSession(store.db, row('forged'));
      clock += 200;
      expect(await sessions.find('forged')).toBeUndefined();
      clock += 1;
      expect(await sessions.find('forged')).toMatchObject({ email: 'forged@acme.example' });
    });

    it('sees a sign-out on another instance once its cached row has lived cacheTtlMs', async () => {
      let clock = Date.now();
      const sessions = createSessionService({ db: store.db, config, cacheTtlMs: 5_000, now: () => clock });
      await sessions.start(row('elsewhere'), { claimLegacyRows: false });
      expect(await sessions.find('elsewhere')).toMatchObject({ email: 'elsewhere@acme.example' });
      await createSessionService({ db: store.db, config }).end('elsewhere');
      clock += 4_000;
      expect(sessions.peek('elsewhere')).toMatchObject({ email: 'elsewhere@acme.example' });
      clock += 1_001;
      expect(sessions.peek('elsewhere')).toBeUndefined();
      expect(await sessions.find('elsewhere')).toBeUndefined();
    });

    it('holds at most cachedSessions ids, so a flood of forged cookies cannot grow it', async () => {
      const sessions = createSessionService({ db: store.db, config, cachedSessions: 3 });
      for (const id of ['forged-1', 'forged-2', 'forged-3', 'forged-4']) await sessions.find(id);
      expect(['forged-1', 'forged-2', 'forged-3', 'forged-4'].map((id) => sessions.isGone(id))).toEqual([
        false,
        true,
        true,
        true,
      ]);
      for (const id of ['live-1', 'live-2', 'live-3', 'live-4']) {
        await sessions.start(row(id), { claimLegacyRows: false });
        await sessions.find(id);
      }
      expect(['live-1', 'live-2', 'live-3', 'live-4'].map((id) => sessions.peek(id) !== undefined)).toEqual([
        false,
        true,
        true,
        true,
      ]);
    });
  });
}
