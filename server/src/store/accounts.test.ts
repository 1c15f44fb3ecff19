import { beforeEach, describe, expect, it } from 'vitest';
import { storeForSuite, testBackends } from '../../test-support/test-databases.js';
import { deleteUnusedAccounts, findCurrentAddress, recordSignIn } from './accounts.js';
import { createPersonalToken, findPersonalToken } from './personal-tokens.js';
import { accounts, personalTokens, sessions } from './schema.js';
import { createSession, createSignedInSession, findSessionByIdHash, type NewSession } from './sessions.js';

const account = { issuer: 'https://accounts.acme.example', subject: 'renamed-subject' };

function signInAs(idHash: string, email: string): NewSession {
  return {
    idHash,
    ...account,
    email,
    emailVerified: true,
    hostedDomain: 'acme.example',
    name: null,
    expiresAt: new Date(Date.now() + 3_600_000),
  };
}

for (const backend of testBackends) {
  describe.skipIf(backend.skipped)(`accounts' current addresses on ${backend.name}`, () => {
    const store = storeForSuite(backend);

    beforeEach(async () => {
      await store.db.delete(personalTokens);
      await store.db.delete(sessions);
      await store.db.delete(accounts);
    });

    it('gives a session made before addresses were kept per account no current address', async () => {
      await createSession(store.db, signInAs('kept-before', 'old@acme.example'));

      expect(await findSessionByIdHash(store.db, { idHash: 'kept-before' })).toMatchObject({
        email: 'old@acme.example',
        current: null,
      });
    });

    it("reads every credential of an account with the latest sign-in's address beside its own", async () => {
      await createSignedInSession(store.db, signInAs('first', 'old@acme.example'));
      await createPersonalToken(store.db, {
        id: 'token-1',
        reader: 'oidc:https://accounts.acme.example#renamed-subject',
        ...account,
        email: 'old@acme.example',
        emailVerified: true,
        hostedDomain: 'acme.example',
        name: 'script',
        secretHash: 'hash',
        expiresAt: new Date(Date.now() + 3_600_000),
      });
      await createSignedInSession(store.db, { ...signInAs('second', 'new@acme.example'), emailVerified: false });

      const latest = { email: 'new@acme.example', emailVerified: false, hostedDomain: 'acme.example' };
      expect(await findSessionByIdHash(store.db, { idHash: 'first' })).toMatchObject({
        email: 'old@acme.example',
        current: latest,
      });
      expect(await findPersonalToken(store.db, { id: 'token-1' })).toMatchObject({
        email: 'old@acme.example',
        current: latest,
      });
      expect(await findCurrentAddress(store.db, account)).toEqual(latest);
    });

    it('removes an account no credential refers to once its sign-in is a day old, and keeps the others', async () => {
      const dayAgo = new Date(Date.now() - 86_400_000 - 60_000);
      const address = { emailVerified: true, hostedDomain: 'acme.example' };
      await recordSignIn(store.db, { ...account, email: 'kept@acme.example', ...address });
      await createSession(store.db, signInAs('still-signed-in', 'kept@acme.example'));
      const left = { issuer: account.issuer, subject: 'left-the-company' };
      await recordSignIn(store.db, { ...left, email: 'left@acme.example', ...address });
      const fresh = { issuer: account.issuer, subject: 'signing-in-now' };
      await recordSignIn(store.db, { ...fresh, email: 'fresh@acme.example', ...address });
      await store.db.update(accounts).set({ signedInAt: dayAgo });
      await recordSignIn(store.db, { ...fresh, email: 'fresh@acme.example', ...address });

      expect(await deleteUnusedAccounts(store.db, { now: new Date() })).toBe(1);
      expect(await findCurrentAddress(store.db, left)).toBeUndefined();
      expect(await findCurrentAddress(store.db, account)).toMatchObject({ email: 'kept@acme.example' });
      expect(await findCurrentAddress(store.db, fresh)).toMatchObject({ email: 'fresh@acme.example' });
      expect(await deleteUnusedAccounts(store.db, { now: new Date() })).toBe(0);
    });
  });
}
