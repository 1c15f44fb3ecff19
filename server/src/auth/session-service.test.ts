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
      const sessions = createSessionService({ db: store.db, config, cacheTtlMs: 200 });
      expect(sessions.isGone('forged')).toBe(false);
      expect(await sessions.find('forged')).toBeUndefined();
      expect(sessions.isGone('forged')).toBe(true);
      // Planted behind the service's back (sign-in never reuses an id): not read while the id is known to be gone.
      await createSession(store.db, row('forged'));
      expect(await sessions.find('forged')).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await sessions.find('forged')).toMatchObject({ email: 'forged@acme.example' });
    });
  });
}
