import { describe, expect, it } from 'vitest';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import type { AccessPolicy } from './access-policy.js';
import { hashSessionId, newSessionId, sessionCookieCodec } from './session-cookie.js';
import { createSessionService } from './session-service.js';
import { createViewerResolver } from './viewer.js';

const embedded = testBackends.filter((backend) => backend.name === 'PGlite in memory');

for (const backend of embedded) {
  describe(`viewer on ${backend.name}`, () => {
    const store = storeForSuite(backend);
    const cookies = sessionCookieCodec('a-secret-for-the-viewer-tests-only');
    const policy: AccessPolicy = {
      domains: ['acme.example', 'acme.test'],
      addresses: [],
      allowSubdomains: false,
      requireHostedDomain: false,
      maintainers: [],
    };

    async function signedIn() {
      const service = createSessionService({ db: store.db, config: { sessionIdleTimeoutMs: 3_600_000 } });
      let reads = 0;
      const find = (idHash: string) => {
        reads += 1;
        return service.find(idHash);
      };
      const sessions = { ...service, find };
      const viewers = createViewerResolver({ sessions, currentPolicy: () => policy, cookies });
      const sessionId = newSessionId();
      await service.start(
        {
          idHash: hashSessionId(sessionId),
          issuer: 'https://accounts.acme.example',
          subject: sessionId,
          email: 'reader@acme.example',
          emailVerified: true,
          hostedDomain: 'acme.example',
          name: null,
          expiresAt: new Date(Date.now() + 3_600_000),
        },
        { claimLegacyRows: false },
      );
      return { viewers, sessionId, reads: () => reads };
    }

    it('lets the cookie it issued in, reading the store once', async () => {
      const { viewers, sessionId, reads } = await signedIn();
      const value = cookies.valueOf(sessionId);
      expect(viewers.known(value)).toBeUndefined();
      expect(await viewers.resolve(value)).toMatchObject({ state: 'signed-in', access: { allowed: true } });
      expect(viewers.known(value)).toMatchObject({ state: 'signed-in' });
      expect(reads()).toBe(1);
    });

    it('refuses a live session id without a store read when its tag is missing, altered or made elsewhere', async () => {
      const { viewers, sessionId, reads } = await signedIn();
      const [, tag = ''] = cookies.valueOf(sessionId).split('.');
      const forgeries = [
        sessionId,
        `${sessionId}.`,
        `${sessionId}.${tag.slice(0, -1)}`,
        `${sessionId}.${tag}A`,
        `${sessionId}.${tag.replace(/^./, (first) => (first === 'A' ? 'B' : 'A'))}`,
        sessionCookieCodec('another-secret-of-another-deployment').valueOf(sessionId),
        `${cookies.valueOf(sessionId)}.${tag}`,
      ];
      for (const forged of forgeries) {
        expect(viewers.known(forged), forged).toEqual({ state: 'signed-out' });
        expect(await viewers.resolve(forged), forged).toEqual({ state: 'signed-out' });
      }
      expect(reads()).toBe(0);
    });

    it('still reads the store for a tagged id it does not know, and then refuses it without reading', async () => {
      const { viewers, reads } = await signedIn();
      const unknown = cookies.valueOf(newSessionId());
      expect(viewers.known(unknown)).toBeUndefined();
      expect(await viewers.resolve(unknown)).toEqual({ state: 'signed-out' });
      expect(viewers.known(unknown)).toEqual({ state: 'signed-out' });
      expect(reads()).toBe(1);
    });
  });
}
