import { describe, expect } from 'vitest';
import { newSessionId } from '../server/src/auth/session-cookie.js';
import { threads } from '../server/src/store/schema.js';
import { storeReaderSession } from '../server/test-support/reader-rows.js';
import { test } from './fixtures';
import { cookieValueFor } from './gate-security';
import { sessionCookieFor, signIn } from './sign-in';
import { readerApi } from './threads-api';

/**
 * Whose chats are whose, through the real sign-in (issue 14, item 2): threads belong to the identity provider's
 * account (issuer and `sub`), not to an address that folds like another one.
 */
test.override({ readerEmail: 'kate2@acme.dev', serverEnvironment: { LOG_LEVEL: 'silent' } });

/** U+212A KELVIN SIGN, which `toLowerCase` turns into "k": "Kate2@acme.dev" to the eye and to JavaScript. */
const kelvinKate = '\u212Aate2@acme.dev';

async function threadTitles(baseUrl: string, cookie: string): Promise<string[]> {
  const response = await readerApi(baseUrl, cookie).call('GET', '/api/threads');
  expect(response.status).toBe(200);
  return ((await response.json()) as { threads: { title: string }[] }).threads.map((thread) => thread.title);
}

async function newThread(baseUrl: string, cookie: string, title: string): Promise<string> {
  const response = await readerApi(baseUrl, cookie).call('POST', '/api/threads', { title });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('a look-alike address', () => {
  test('is refused at sign-in with its own message, and gets no session', async ({ server }) => {
    const { jar, response } = await signIn(server.baseUrl, { email: kelvinKate });

    expect(response.status).toBe(403);
    expect(await response.text()).toContain('outside plain ASCII');
    expect(jar.get('acme_session')).toBeUndefined();
  });

  test("cannot list, read or delete the other reader's threads even with a session", async ({
    server,
    sessionCookie,
  }) => {
    const threadId = await newThread(server.baseUrl, sessionCookie, "Kate's deploys");
    // A session stored for the look-alike (as before this rule, or by a provider that sent it some other way).
    const sessionId = newSessionId();
    await storeReaderSession(server.store.db, sessionId, {
      issuer: server.config.identityProvider.issuer,
      subject: 'kelvin-account',
      email: kelvinKate,
      name: null,
    });
    const impostor = readerApi(server.baseUrl, `acme_session=${cookieValueFor(server, sessionId)}`);

    expect((await impostor.call('GET', '/api/threads')).status).toBe(403);
    expect((await impostor.call('GET', `/api/threads/${threadId}`)).status).toBe(403);
    expect((await impostor.call('DELETE', `/api/threads/${threadId}`)).status).toBe(403);
    expect(await threadTitles(server.baseUrl, sessionCookie)).toContain("Kate's deploys");
  });

  test('another account whose address differs only in case is another reader', async ({ server, sessionCookie }) => {
    const threadId = await newThread(server.baseUrl, sessionCookie, 'Only mine');
    const other = readerApi(server.baseUrl, await sessionCookieFor(server.baseUrl, 'KATE2@acme.dev'));

    expect(await threadTitles(server.baseUrl, other.cookie)).not.toContain('Only mine');
    expect((await other.call('GET', `/api/threads/${threadId}`)).status).toBe(404);
    expect((await other.call('DELETE', `/api/threads/${threadId}`)).status).toBe(404);
    expect(await threadTitles(server.baseUrl, sessionCookie)).toContain('Only mine');
  });
});

describe('an account whose address changes', () => {
  test('keeps its threads; the old address signed in by another account does not get them', async ({ server }) => {
    const before = await signIn(server.baseUrl, { email: 'dana@acme.dev', subject: 'dana-account' });
    const beforeCookie = `acme_session=${before.jar.get('acme_session')}`;
    await newThread(server.baseUrl, beforeCookie, 'Before the rename');

    const after = await signIn(server.baseUrl, { email: 'dana.smith@acme.io', subject: 'dana-account' });
    expect(await threadTitles(server.baseUrl, `acme_session=${after.jar.get('acme_session')}`)).toEqual([
      'Before the rename',
    ]);

    const newcomer = await signIn(server.baseUrl, { email: 'dana@acme.dev', subject: 'another-dana' });
    expect(await threadTitles(server.baseUrl, `acme_session=${newcomer.jar.get('acme_session')}`)).toEqual([]);
  });
});

describe('threads stored before subjects were kept', () => {
  test('go to the first allowed sign-in of that exact address, and to no one else', async ({ server }) => {
    await server.store.db.insert(threads).values([
      { id: 'legacy-lee', reader: 'email:lee@acme.dev', title: "Lee's old chat" },
      { id: 'legacy-kelvin', reader: `email:${kelvinKate.toLowerCase()}`, title: 'Folded by toLowerCase' },
    ]);

    // Unverified, so not allowed: it claims nothing.
    await signIn(server.baseUrl, { email: 'lee@acme.dev', verified: false, subject: 'unverified-lee' });
    const lee = await signIn(server.baseUrl, { email: 'Lee@acme.dev', subject: 'lee-account' });
    expect(await threadTitles(server.baseUrl, `acme_session=${lee.jar.get('acme_session')}`)).toEqual([
      "Lee's old chat",
    ]);
    const later = await signIn(server.baseUrl, { email: 'lee@acme.dev', subject: 'later-lee' });
    expect(await threadTitles(server.baseUrl, `acme_session=${later.jar.get('acme_session')}`)).toEqual([]);

    // The row a Kelvin-sign reader stored as "kate2@acme.dev" goes to the real kate2 at her next sign-in.
    const kate = await sessionCookieFor(server.baseUrl, 'kate2@acme.dev');
    expect(await threadTitles(server.baseUrl, kate)).toContain('Folded by toLowerCase');
  });
});
