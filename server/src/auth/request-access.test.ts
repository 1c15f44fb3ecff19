import { describe, expect, it } from 'vitest';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import type { AccessPolicy } from './access-policy.js';
import { createAccessResolver } from './request-access.js';
import { hashSessionId, newSessionId, sessionCookieCodec } from './session-cookie.js';
import { createSessionService } from './session-service.js';

const embedded = testBackends.filter((backend) => backend.name === 'PGlite in memory');

for (const backend of embedded) {
  describe(`access on ${backend.name}`, () => {
    const store = storeForSuite(backend);
    const cookies = sessionCookieCodec('a-secret-for-the-access-tests-only');
    const policy: AccessPolicy = {
      domains: ['acme.example', 'acme.test'],
      addresses: [],
      allowSubdomains: false,
      requireHostedDomain: false,
      maintainers: [],
      blocked: [],
    };

    async function signedIn() {
      const service = createSessionService({ db: store.db, config: { sessionIdleTimeoutMs: 3_600_000 } });
      let reads = 0;
      const find = (idHash: string) => {
        reads += 1;
        return service.find(idHash);
      };
      const sessions = { ...service, find };
      const accessResolver = createAccessResolver({ sessions, currentPolicy: () => policy, cookies });
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
      return { accessResolver, sessionId, reads: () => reads };
    }

    it('lets the cookie it issued in, reading the store once', async () => {
      const { accessResolver, sessionId, reads } = await signedIn();
      const value = cookies.valueOf(sessionId);
      expect(accessResolver.known(value)).toBeUndefined();
      expect(await accessResolver.resolve(value)).toMatchObject({ state: 'signed-in', decision: { allowed: true } });
      expect(accessResolver.known(value)).toMatchObject({ state: 'signed-in' });
      expect(reads()).toBe(1);
    });

    it('refuses a live session id without a store read when its tag is missing, altered or made elsewhere', async () => {
      const { accessResolver, sessionId, reads } = await signedIn();
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
        expect(accessResolver.known(forged), forged).toEqual({ state: 'signed-out' });
        expect(await accessResolver.resolve(forged), forged).toEqual({ state: 'signed-out' });
      }
      expect(reads()).toBe(0);
    });

    it('still reads the store for a tagged id it does not know, and then refuses it without reading', async () => {
      const { accessResolver, reads } = await signedIn();
      const unknown = cookies.valueOf(newSessionId());
      expect(accessResolver.known(unknown)).toBeUndefined();
      expect(await accessResolver.resolve(unknown)).toEqual({ state: 'signed-out' });
      expect(accessResolver.known(unknown)).toEqual({ state: 'signed-out' });
      expect(reads()).toBe(1);
    });
  });
}
