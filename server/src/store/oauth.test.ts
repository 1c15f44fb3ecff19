import { beforeEach, describe, expect, it } from 'vitest';
import { adaIdentity } from '../../test-support/reader-rows.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import {
  createAuthorizationCode,
  createOAuthClient,
  deleteStaleOAuthRows,
  findOAuthClient,
  recordCodeToken,
  rotateOAuthTokens,
  takeAuthorizationCode,
} from './oauth.js';
import { createPersonalToken, findPersonalToken } from './personal-tokens.js';
import { oauthClients, oauthCodes, personalTokens } from './schema.js';

const now = new Date('2030-01-10T12:00:00Z');
const reader = adaIdentity;

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`OAuth rows on ${backend.name}`, () => {
    const store = storeForSuite(backend);

    beforeEach(async () => {
      await store.db.delete(personalTokens);
      await store.db.delete(oauthClients);
      await createOAuthClient(store.db, { id: 'client-1', name: 'Agent', redirectUris: ['http://127.0.0.1:9/cb'] });
    });

    const agent = (id: string, name = 'Agent') => ({ id, name, redirectUris: ['http://127.0.0.1:9/cb'] });
    const code = (codeHash: string, expiresAt = new Date(now.getTime() + 120_000), client = agent('client-1')) =>
      createAuthorizationCode(store.db, {
        client,
        code: {
          ...reader,
          codeHash,
          redirectUri: 'http://127.0.0.1:9/cb',
          codeChallenge: 'c'.repeat(43),
          resource: 'http://127.0.0.1/mcp',
          expiresAt,
        },
      });

    it('keeps a client with its exact redirect URIs', async () => {
      expect(await findOAuthClient(store.db, { id: 'client-1' })).toMatchObject({
        name: 'Agent',
        redirectUris: ['http://127.0.0.1:9/cb'],
      });
      expect(await findOAuthClient(store.db, { id: 'client-2' })).toBeUndefined();
    });

    it('marksACodePresentedAgainBeforeItsTokenWasRecorded', async () => {
      await code('hash-race');
      expect((await takeAuthorizationCode(store.db, { codeHash: 'hash-race', now })).code).toBeDefined();
      // A second request with the code arrives while the first one's exchange is still minting its token.
      const replay = await takeAuthorizationCode(store.db, { codeHash: 'hash-race', now });
      expect(replay).toMatchObject({ code: undefined, reused: { codeHash: 'hash-race', tokenId: null } });
      expect(await recordCodeToken(store.db, { codeHash: 'hash-race', tokenId: 'token-race' })).toBe(false);
      // Once a token is recorded, a replay names it, and recording another is refused.
      await code('hash-calm');
      await takeAuthorizationCode(store.db, { codeHash: 'hash-calm', now });
      expect(await recordCodeToken(store.db, { codeHash: 'hash-calm', tokenId: 'token-calm' })).toBe(true);
      const later = await takeAuthorizationCode(store.db, { codeHash: 'hash-calm', now });
      expect(later).toMatchObject({ code: undefined, reused: { tokenId: 'token-calm' } });
      expect(await recordCodeToken(store.db, { codeHash: 'hash-calm', tokenId: 'token-other' })).toBe(false);
    });

    it('givesACodeOutOnceEvenToTwoRequestsAtOnce', async () => {
      await code('hash-1');
      const [first, second] = await Promise.all([
        takeAuthorizationCode(store.db, { codeHash: 'hash-1', now }),
        takeAuthorizationCode(store.db, { codeHash: 'hash-1', now }),
      ]);
      expect([first.code, second.code].filter(Boolean)).toHaveLength(1);
      // The one that lost presented the code before a token was recorded: the winner's token is not kept.
      expect(await recordCodeToken(store.db, { codeHash: 'hash-1', tokenId: 'token-1' })).toBe(false);
      const again = await takeAuthorizationCode(store.db, { codeHash: 'hash-1', now });
      expect(again).toMatchObject({ code: undefined, reused: { tokenId: null } });
      expect(await takeAuthorizationCode(store.db, { codeHash: 'nope', now })).toEqual({
        code: undefined,
        reused: undefined,
      });
    });

    it('replacesAGrantsTokensOnlyForItsCurrentRefreshToken', async () => {
      await createPersonalToken(store.db, {
        ...reader,
        id: 'grant-1',
        name: 'Agent (connected with OAuth)',
        secretHash: 'access-1',
        expiresAt: new Date(now.getTime() + 86_400_000),
        clientId: 'client-1',
        refreshHash: 'refresh-1',
        accessExpiresAt: new Date(now.getTime() + 3_600_000),
      });
      const rotation = { id: 'grant-1', secretHash: 'access-2', refreshHash: 'refresh-2', accessExpiresAt: now };
      expect(await rotateOAuthTokens(store.db, { ...rotation, previousRefreshHash: 'refresh-1' })).toBe(true);
      expect(await rotateOAuthTokens(store.db, { ...rotation, previousRefreshHash: 'refresh-1' })).toBe(false);
      expect(await findPersonalToken(store.db, { id: 'grant-1' })).toMatchObject({ secretHash: 'access-2' });
    });

    it('storesAClientWithItsFirstCodeOnlyAndKeepsThatRowForLaterCodes', async () => {
      await store.db.delete(oauthClients);
      await Promise.all([code('hash-a', undefined, agent('new')), code('hash-b', undefined, agent('new'))]);
      await code('hash-c', undefined, agent('new', 'Renamed'));
      expect(await store.db.select({ id: oauthClients.id, name: oauthClients.name }).from(oauthClients)).toEqual([
        { id: 'new', name: 'Agent' },
      ]);
      const codes = await store.db.select({ clientId: oauthCodes.clientId }).from(oauthCodes);
      expect(codes.map((row) => row.clientId)).toEqual(['new', 'new', 'new']);
    });

    it('removes expired codes and hour-old clients nobody authorized, keeping clients with a grant', async () => {
      // Clients are stamped by the database's clock: this test runs on the real one.
      const at = new Date();
      await code('old', new Date(at.getTime() - 1));
      await code('fresh', new Date(at.getTime() + 120_000));
      const dayLater = new Date(at.getTime() + 2 * 86_400_000);
      await createOAuthClient(store.db, { id: 'client-used', name: 'Used', redirectUris: ['http://127.0.0.1:9/cb'] });
      await createPersonalToken(store.db, {
        ...reader,
        id: 'grant-2',
        name: 'Used (connected with OAuth)',
        secretHash: 'x',
        expiresAt: new Date(dayLater.getTime() + 86_400_000),
        clientId: 'client-used',
      });
      expect(await deleteStaleOAuthRows(store.db, { now: at })).toBe(1);
      expect(await deleteStaleOAuthRows(store.db, { now: dayLater })).toBe(2);
      expect(await findOAuthClient(store.db, { id: 'client-1' })).toBeUndefined();
      expect(await findOAuthClient(store.db, { id: 'client-used' })).toBeDefined();
    });
  });
}
