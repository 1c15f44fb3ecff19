import { beforeEach, describe, expect, it } from 'vitest';
import { adaIdentity } from '../../test-support/reader-rows.js';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import {
  countLivePersonalTokens,
  createPersonalToken,
  createPersonalTokenWithinLimit,
  deleteExpiredPersonalTokens,
  deletePersonalToken,
  findPersonalToken,
  listPersonalTokens,
  type NewPersonalToken,
  touchPersonalToken,
} from './personal-tokens.js';
import { personalTokens } from './schema.js';

const day = 86_400_000;
const now = new Date('2030-01-10T12:00:00Z');

function newToken(id: string, overrides: Partial<NewPersonalToken> = {}): NewPersonalToken {
  return {
    id,
    ...adaIdentity,
    name: `token ${id}`,
    secretHash: 'a'.repeat(64),
    expiresAt: new Date(now.getTime() + 30 * day),
    ...overrides,
  };
}

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`personal tokens on ${backend.name}`, () => {
    const store = storeForSuite(backend);

    beforeEach(async () => {
      await store.db.delete(personalTokens);
    });

    it('lists only the reader’s tokens that have not expired, and counts them', async () => {
      await createPersonalToken(store.db, newToken('live-token-00001'));
      await createPersonalToken(store.db, newToken('gone-token-00001', { expiresAt: new Date(now.getTime() - 1) }));
      await createPersonalToken(store.db, newToken('other-token-0001', { reader: 'oidc:x#someone-else' }));
      const reader = newToken('x').reader;
      expect((await listPersonalTokens(store.db, { reader, now })).map((row) => row.id)).toEqual(['live-token-00001']);
      expect(await countLivePersonalTokens(store.db, { reader, now })).toBe(1);
    });

    it('stores at most the limit of live tokens per reader, even for 80 requests at once', async () => {
      await createPersonalToken(store.db, newToken('expired-token-01', { expiresAt: new Date(now.getTime() - 1) }));
      const made = await Promise.all(
        Array.from({ length: 80 }, (_, index) =>
          createPersonalTokenWithinLimit(store.db, newToken(`at-once-${String(index).padStart(8, '0')}`), {
            max: 50,
            now,
          }),
        ),
      );
      expect(made.filter((row) => typeof row !== 'string')).toHaveLength(50);
      expect(made.filter((row) => row === 'limit')).toHaveLength(30);
      const reader = newToken('x').reader;
      expect(await countLivePersonalTokens(store.db, { reader, now })).toBe(50);
      // Another reader's limit is their own.
      const other = newToken('other-reader-001', { reader: 'oidc:x#someone-else' });
      expect(await createPersonalTokenWithinLimit(store.db, other, { max: 50, now })).toMatchObject({ id: other.id });
    });

    it("refuses, when asked, a second live token of a name the reader holds, whatever its letters' case", async () => {
      const reader = newToken('x').reader;
      const named = (id: string, name: string, expiresAt = new Date(now.getTime() + 60_000)) =>
        newToken(id, { name, expiresAt });
      await createPersonalToken(store.db, named('ci-token-000001', 'CI deploys'));
      await createPersonalToken(store.db, named('old-token-00001', 'Laptop', new Date(now.getTime() - 1)));
      const options = { max: 50, now, uniqueName: true };

      expect(await createPersonalTokenWithinLimit(store.db, named('ci-token-000002', 'ci DEPLOYS'), options)).toBe(
        'name',
      );
      expect(await createPersonalTokenWithinLimit(store.db, named('laptop-token-01', 'Laptop'), options)).toMatchObject(
        {
          id: 'laptop-token-01',
        },
      );
      const elsewhere = newToken('ci-token-000003', { name: 'CI deploys', reader: 'oidc:x#someone-else' });
      expect(await createPersonalTokenWithinLimit(store.db, elsewhere, options)).toMatchObject({ id: elsewhere.id });
      expect((await listPersonalTokens(store.db, { reader, now })).map((row) => row.name).sort()).toEqual([
        'CI deploys',
        'Laptop',
      ]);
    });

    it("revokes a token only for its reader: another reader's revocation deletes nothing", async () => {
      await createPersonalToken(store.db, newToken('kept-token-00001'));
      expect(await deletePersonalToken(store.db, { reader: 'oidc:x#mallory', id: 'kept-token-00001' })).toBe(false);
      expect(await findPersonalToken(store.db, { id: 'kept-token-00001' })).toBeDefined();
      expect(await deletePersonalToken(store.db, { reader: newToken('x').reader, id: 'kept-token-00001' })).toBe(true);
      expect(await findPersonalToken(store.db, { id: 'kept-token-00001' })).toBeUndefined();
    });

    it('records the last use at most once per throttle window', async () => {
      await createPersonalToken(store.db, newToken('used-token-00001'));
      await touchPersonalToken(store.db, { id: 'used-token-00001', now, throttleMs: 60_000 });
      await touchPersonalToken(store.db, {
        id: 'used-token-00001',
        now: new Date(now.getTime() + 30_000),
        throttleMs: 60_000,
      });
      expect((await findPersonalToken(store.db, { id: 'used-token-00001' }))?.lastUsedAt).toEqual(now);
      const later = new Date(now.getTime() + 61_000);
      await touchPersonalToken(store.db, { id: 'used-token-00001', now: later, throttleMs: 60_000 });
      expect((await findPersonalToken(store.db, { id: 'used-token-00001' }))?.lastUsedAt).toEqual(later);
    });

    it('deletes expired tokens only', async () => {
      await createPersonalToken(store.db, newToken('live-token-00002'));
      await createPersonalToken(store.db, newToken('gone-token-00002', { expiresAt: now }));
      expect(await deleteExpiredPersonalTokens(store.db, { now })).toBe(1);
      expect(await findPersonalToken(store.db, { id: 'live-token-00002' })).toBeDefined();
    });
  });
}
