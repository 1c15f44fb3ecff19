import { describe, expect } from 'vitest';
import { cookieSealer } from '../server/src/auth/cookie-sealer.js';
import { test } from './fixtures';
import {
  attemptCookie,
  cookieAttributes,
  expectCleared,
  expectNoNewSession,
  fetchPath,
  messages,
  plantCookie,
  reachCallback,
  readAttempt,
  type SignInAttempt,
  sessionCookie,
  setCookieFor,
  signAttempt,
} from './gate-security';
import { openSignInForm, send, signIn, submitSignInForm } from './sign-in';

test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

describe('sign-in callback attacks', () => {
  test('missingSignInAttemptCookieIsRefused', async ({ server }) => {
    const response = await fetchPath(server.baseUrl, '/auth/callback?code=x&state=y');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain(messages.expired);
    expectNoNewSession(response);
  });

  test('forgedStateIsRefused', async ({ server }) => {
    const { jar, callback } = await reachCallback(server.baseUrl);
    callback.searchParams.set('state', 'attacker-chosen-state');
    const response = await send(jar, callback);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain(messages.stateMismatch);
    expectNoNewSession(response);
    expect(jar.get(sessionCookie)).toBeUndefined();
  });

  test('attackersCallbackInVictimsBrowserIsRefused', async ({ server }) => {
    const attacker = await reachCallback(server.baseUrl, 'attacker@acme.dev');
    const victim = await openSignInForm(server.baseUrl);
    const response = await send(victim.jar, attacker.callback);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain(messages.stateMismatch);
    expectNoNewSession(response);
  });

  test('replayedCodeIsRefused', async ({ server }) => {
    const { jar, callback } = await reachCallback(server.baseUrl);
    const stolenAttempt = jar.get(attemptCookie);
    const first = await send(jar, callback);
    expect(first.status).toBe(303);
    expect(jar.get(sessionCookie)).toBeDefined();

    const replay = await fetchPath(server.baseUrl, callback.href, { cookie: `${attemptCookie}=${stolenAttempt}` });
    expect(replay.status).toBe(401);
    expectNoNewSession(replay);
  });

  test('wrongNonceIsRefused', async ({ server }) => {
    const secret = server.config.sessionSecret;
    const { jar, callback } = await reachCallback(server.baseUrl);
    const attempt = readAttempt(jar, secret);
    plantCookie(jar, attemptCookie, signAttempt({ ...attempt, nonce: 'a-nonce-the-id-token-does-not-carry' }, secret));
    const response = await send(jar, callback);
    expect(response.status).toBe(401);
    expectNoNewSession(response);
    expect(jar.get(sessionCookie)).toBeUndefined();
  });

  test.for<[string, (attempt: SignInAttempt, secret: string) => string]>([
    ['attemptSignedWithAnotherSecretIsRefused', (attempt: SignInAttempt) => signAttempt(attempt, 'x'.repeat(64))],
    ['unsignedAttemptIsRefused', (attempt: SignInAttempt) => encodeURIComponent(JSON.stringify(attempt))],
    ['garbageAttemptIsRefused', () => 'not-json.not-a-signature'],
    [
      'attemptOlderThanTenMinutesIsRefused',
      (attempt: SignInAttempt, secret: string) => signAttempt({ ...attempt, startedAt: Date.now() - 601_000 }, secret),
    ],
    [
      'attemptStartedFiveMinutesInTheFutureIsRefused',
      (attempt: SignInAttempt, secret: string) => signAttempt({ ...attempt, startedAt: Date.now() + 300_000 }, secret),
    ],
    [
      'attemptWithoutItsStartIsRefused',
      ({ startedAt: _startedAt, ...attempt }: SignInAttempt, secret: string) =>
        encodeURIComponent(cookieSealer(secret).sign(JSON.stringify(attempt))),
    ],
    [
      'signedAttemptWithoutCodeVerifierIsRefused',
      ({ state, nonce }: SignInAttempt, secret: string) =>
        encodeURIComponent(cookieSealer(secret).sign(JSON.stringify({ state, nonce, next: '/' }))),
    ],
    [
      'signedAttemptThatIsNotJsonIsRefused',
      (_attempt: SignInAttempt, secret: string) => encodeURIComponent(cookieSealer(secret).sign('{"state":')),
    ],
  ])('%s', async ([_name, forge], { server }) => {
    const secret = server.config.sessionSecret;
    const { jar, callback } = await reachCallback(server.baseUrl);
    plantCookie(jar, attemptCookie, forge(readAttempt(jar, secret), secret));
    const response = await send(jar, callback);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(messages.expired);
    expectNoNewSession(response);
  });

  test('identityProviderErrorAccessDeniedShowsCancelled', async ({ server }) => {
    const { jar } = await openSignInForm(server.baseUrl);
    const { state } = readAttempt(jar, server.config.sessionSecret);
    const response = await send(jar, new URL(`/auth/callback?error=access_denied&state=${state}`, server.baseUrl));
    expect(response.status).toBe(401);
    expect(await response.text()).toContain(messages.cancelled);
    expectCleared(response, attemptCookie);
    expect(jar.get(attemptCookie)).toBeUndefined();
    expectNoNewSession(response);
  });

  test('cancelButtonOfTheIdentityProviderShowsCancelled', async ({ server }) => {
    const { jar, form } = await openSignInForm(server.baseUrl);
    const callback = await submitSignInForm(jar, form, { action: 'cancel' });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const response = await send(jar, callback);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain(messages.cancelled);
    expectNoNewSession(response);
  });

  /** Where the Login button of a callback's problem page leads back to after sign-in. */
  const returnPathOfLogin = (html: string) => {
    const href = /href="([^"]*)" data-testid="gate-login"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
    return href === undefined ? undefined : new URL(href, 'http://x.invalid').searchParams.get('next');
  };

  test('cancelledSignInOffersToReturnToThePageItStartedFrom', async ({ server }) => {
    const { jar, form } = await openSignInForm(server.baseUrl, '/coding-standard/#naming');
    const callback = await submitSignInForm(jar, form, { action: 'cancel' });
    const response = await send(jar, callback);
    expect(response.status).toBe(401);
    const page = await response.text();
    expect(page).toContain(messages.cancelled);
    expect(returnPathOfLogin(page)).toBe('/coding-standard/#naming');
  });

  test('failedSignInReturnsOnlyToOurOwnOrigin', async ({ server }) => {
    const secret = server.config.sessionSecret;
    const { jar } = await openSignInForm(server.baseUrl, '/faqs/');
    const attempt = readAttempt(jar, secret);
    // A sealed attempt naming another site (it could only come from a leaked secret) still returns home.
    plantCookie(jar, attemptCookie, signAttempt({ ...attempt, next: '//evil.example/faqs/' }, secret));
    const response = await send(
      jar,
      new URL(`/auth/callback?error=server_error&state=${attempt.state}`, server.baseUrl),
    );
    expect(response.status).toBe(401);
    expect(returnPathOfLogin(await response.text())).toBe('/');
  });

  test('signInAttemptCookieIsClearedAtCallback', async ({ server }) => {
    const { jar, callback } = await reachCallback(server.baseUrl);
    const response = await send(jar, callback);
    expect(response.status).toBe(303);
    expectCleared(response, attemptCookie);
    expect(jar.get(attemptCookie)).toBeUndefined();
    expect(jar.get(sessionCookie)).toBeDefined();
  });

  test('signInCookiesAreHttpOnlyLaxAndNotSecureOverHttp', async ({ server }) => {
    const { jar, callback } = await reachCallback(server.baseUrl);
    const login = await fetchPath(server.baseUrl, '/auth/login?next=/');
    const finished = await send(jar, callback);
    for (const header of [setCookieFor(login, attemptCookie), setCookieFor(finished, sessionCookie)]) {
      const attributes = cookieAttributes(header ?? '');
      expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
      expect(attributes).not.toContain('secure');
    }
  });
});

describe('return path after sign-in', () => {
  test.for([
    ['protocolRelativeNextIsReplacedByHome', '//evil.com'],
    ['slashBackslashNextIsReplacedByHome', '/\\evil.com'],
    ['absoluteNextIsReplacedByHome', 'https://evil.com'],
    ['encodedSlashesNextIsReplacedByHome', '/%2F%2Fevil.com'],
    ['javascriptNextIsReplacedByHome', 'javascript:alert(1)'],
    ['signInRouteNextIsReplacedByHome', '/auth/login'],
  ])('%s: %j', async ([_name, next], { server }) => {
    const { landedOn } = await signIn(server.baseUrl, { email: 'reader@acme.dev', next });
    expect(landedOn).toBe('/');
  });

  test('honoursSameSitePathWithQuery', async ({ server }) => {
    const { landedOn } = await signIn(server.baseUrl, { email: 'reader@acme.dev', next: '/faqs/?q=1' });
    expect(landedOn).toBe('/faqs/?q=1');
  });

  test('attemptCookieStoresTheValidatedReturnPath', async ({ server }) => {
    const { jar } = await openSignInForm(server.baseUrl, '//evil.com');
    expect(readAttempt(jar, server.config.sessionSecret).next).toBe('/');
  });

  test('forgedReturnPathInSignedAttemptIsValidatedAgainAtCallback', async ({ server }) => {
    const secret = server.config.sessionSecret;
    const { jar, callback } = await reachCallback(server.baseUrl);
    plantCookie(jar, attemptCookie, signAttempt({ ...readAttempt(jar, secret), next: '//evil.com' }, secret));
    const response = await send(jar, callback);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
  });
});
