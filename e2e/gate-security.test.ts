import { existsSync } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashSessionId, newSessionId } from '../server/src/auth/session-cookie.js';
import { listSiteFiles } from '../server/src/gate/site-files.js';
import { createSession, findSessionByIdHash, touchSession } from '../server/src/store/sessions.js';
import { siteBuildDirectory, startServer, type TestServer } from './harness';
import { CookieJar, send, signIn } from './sign-in';

const sessionCookie = 'acme_session';
const attemptCookie = 'acme_sign_in';
const html = { accept: 'text/html,application/xhtml+xml' };
const messages = {
  expired: 'That sign-in attempt expired or was started in another browser tab.',
  stateMismatch: 'That sign-in response did not match the attempt this browser started',
  cancelled: 'Sign-in was cancelled.',
};

type SignInAttempt = { state: string; nonce: string; codeVerifier: string; next: string };

/** One real server (development IdP, in-memory PGlite) for the enclosing describe block. */
function serverForThisBlock(environment: Record<string, string> = {}): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer({ LOG_LEVEL: 'silent', ...environment });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('The server of this block did not start.');
    return server;
  };
}

/** Follows redirects with the jar until `stopAt` says so; the URL it stops at is not requested. */
async function followUntil(jar: CookieJar, start: URL, stopAt: (url: URL) => boolean): Promise<URL> {
  let url = start;
  for (let hop = 0; hop < 10 && !stopAt(url); hop++) {
    const response = await send(jar, url);
    const location = response.headers.get('location');
    if (!location) throw new Error(`Redirects stopped at ${url.pathname} with status ${response.status}.`);
    url = new URL(location, url);
  }
  if (!stopAt(url)) throw new Error(`Too many redirects, last at ${url.pathname}.`);
  return url;
}

/** Opens /auth/login and follows it to the development IdP's form; the jar now holds the attempt cookie. */
async function openSignInForm(baseUrl: string, next = '/', jar = new CookieJar()) {
  const login = new URL(`/auth/login?next=${encodeURIComponent(next)}`, baseUrl);
  const form = await followUntil(jar, login, (url) => url.pathname.startsWith('/dev-idp/interaction/'));
  return { jar, form };
}

/** Submits the development IdP's form and follows it back to our callback URL, without requesting it. */
async function submitSignInForm(jar: CookieJar, form: URL, fields: Record<string, string>): Promise<URL> {
  const submitted = await send(jar, form, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  const location = submitted.headers.get('location');
  if (!location) throw new Error(`The sign-in form answered ${submitted.status} without a redirect.`);
  return followUntil(jar, new URL(location, form), (url) => url.pathname === '/auth/callback');
}

/** Runs the flow by hand up to the moment the browser would request our callback. */
async function reachCallback(baseUrl: string, email = 'reader@acme.dev') {
  const { jar, form } = await openSignInForm(baseUrl);
  const callback = await submitSignInForm(jar, form, { email, verified: 'yes', workspace: 'yes', action: 'sign-in' });
  return { jar, callback };
}

/** Puts a cookie into the jar as if the server (or an attacker on the reader's machine) had set it. */
function plantCookie(jar: CookieJar, name: string, value: string) {
  jar.store(new Response(null, { headers: [['set-cookie', `${name}=${value}; Path=/`]] }));
}

function readAttempt(jar: CookieJar, secret: string): SignInAttempt {
  const raw = jar.get(attemptCookie);
  if (!raw) throw new Error('No sign-in attempt cookie in the jar.');
  const unsigned = fastifyCookie.unsign(decodeURIComponent(raw), secret);
  if (!unsigned.valid || unsigned.value === null) throw new Error('The sign-in attempt cookie is not signed by us.');
  return JSON.parse(unsigned.value) as SignInAttempt;
}

/** A cookie value signed exactly the way the server signs its own attempts. */
function signAttempt(attempt: SignInAttempt, secret: string): string {
  return encodeURIComponent(fastifyCookie.sign(JSON.stringify(attempt), secret));
}

function setCookieFor(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((header) => header.startsWith(`${name}=`));
}

function cookieAttributes(header: string): string[] {
  return header
    .split(';')
    .slice(1)
    .map((attribute) => attribute.trim().toLowerCase());
}

function expectNoNewSession(response: Response) {
  const header = setCookieFor(response, sessionCookie);
  expect(header === undefined || header.startsWith(`${sessionCookie}=;`), header).toBe(true);
}

function expectCleared(response: Response, name: string) {
  const header = setCookieFor(response, name);
  expect(header, `${name} is cleared`).toBeDefined();
  expect(header).toMatch(new RegExp(`^${name}=;`));
  expect(cookieAttributes(header ?? '')).toContain('max-age=0');
}

/** One request without cookies other than those in `headers`, redirects not followed. */
async function fetchPath(baseUrl: string, pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  return fetch(new URL(pathname, baseUrl), { method, headers, redirect: 'manual' });
}

const withSession = (sessionId: string | undefined, headers: Record<string, string> = {}) => ({
  ...headers,
  cookie: `${sessionCookie}=${sessionId ?? ''}`,
});

async function signedInSession(
  baseUrl: string,
  email: string,
  options: { verified?: boolean; workspace?: boolean } = {},
) {
  const { jar, response } = await signIn(baseUrl, { email, ...options });
  expect(response.status, `sign-in of ${email} finished`).toBe(303);
  const sessionId = jar.get(sessionCookie);
  if (!sessionId) throw new Error(`Signing in ${email} set no session cookie.`);
  return sessionId;
}

describe('sign-in callback attacks', () => {
  const server = serverForThisBlock();

  it('missingSignInAttemptCookieIsRefused', async () => {
    const response = await fetchPath(server().baseUrl, '/auth/callback?code=x&state=y');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain(messages.expired);
    expectNoNewSession(response);
  });

  it('forgedStateIsRefused', async () => {
    const { jar, callback } = await reachCallback(server().baseUrl);
    callback.searchParams.set('state', 'attacker-chosen-state');
    const response = await send(jar, callback);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain(messages.stateMismatch);
    expectNoNewSession(response);
    expect(jar.get(sessionCookie)).toBeUndefined();
  });

  it('attackersCallbackInVictimsBrowserIsRefused', async () => {
    const attacker = await reachCallback(server().baseUrl, 'attacker@acme.dev');
    const victim = await openSignInForm(server().baseUrl);
    const response = await send(victim.jar, attacker.callback);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain(messages.stateMismatch);
    expectNoNewSession(response);
  });

  it('replayedCodeIsRefused', async () => {
    const { jar, callback } = await reachCallback(server().baseUrl);
    const stolenAttempt = jar.get(attemptCookie);
    const first = await send(jar, callback);
    expect(first.status).toBe(303);
    expect(jar.get(sessionCookie)).toBeDefined();

    const replay = await fetchPath(server().baseUrl, callback.href, { cookie: `${attemptCookie}=${stolenAttempt}` });
    expect(replay.status).toBe(401);
    expectNoNewSession(replay);
  });

  it('wrongNonceIsRefused', async () => {
    const secret = server().config.sessionSecret;
    const { jar, callback } = await reachCallback(server().baseUrl);
    const attempt = readAttempt(jar, secret);
    plantCookie(jar, attemptCookie, signAttempt({ ...attempt, nonce: 'a-nonce-the-id-token-does-not-carry' }, secret));
    const response = await send(jar, callback);
    expect(response.status).toBe(401);
    expectNoNewSession(response);
    expect(jar.get(sessionCookie)).toBeUndefined();
  });

  it.each([
    ['attemptSignedWithAnotherSecretIsRefused', (attempt: SignInAttempt) => signAttempt(attempt, 'x'.repeat(64))],
    ['unsignedAttemptIsRefused', (attempt: SignInAttempt) => encodeURIComponent(JSON.stringify(attempt))],
    ['garbageAttemptIsRefused', () => 'not-json.not-a-signature'],
    [
      'signedAttemptWithoutCodeVerifierIsRefused',
      ({ state, nonce }: SignInAttempt, secret: string) =>
        encodeURIComponent(fastifyCookie.sign(JSON.stringify({ state, nonce, next: '/' }), secret)),
    ],
    [
      'signedAttemptThatIsNotJsonIsRefused',
      (_attempt: SignInAttempt, secret: string) => encodeURIComponent(fastifyCookie.sign('{"state":', secret)),
    ],
  ])('%s', async (_name, forge: (attempt: SignInAttempt, secret: string) => string) => {
    const secret = server().config.sessionSecret;
    const { jar, callback } = await reachCallback(server().baseUrl);
    plantCookie(jar, attemptCookie, forge(readAttempt(jar, secret), secret));
    const response = await send(jar, callback);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(messages.expired);
    expectNoNewSession(response);
  });

  it('identityProviderErrorAccessDeniedShowsCancelled', async () => {
    const { jar } = await openSignInForm(server().baseUrl);
    const { state } = readAttempt(jar, server().config.sessionSecret);
    const response = await send(jar, new URL(`/auth/callback?error=access_denied&state=${state}`, server().baseUrl));
    expect(response.status).toBe(401);
    expect(await response.text()).toContain(messages.cancelled);
    expectCleared(response, attemptCookie);
    expect(jar.get(attemptCookie)).toBeUndefined();
    expectNoNewSession(response);
  });

  it('cancelButtonOfTheIdentityProviderShowsCancelled', async () => {
    const { jar, form } = await openSignInForm(server().baseUrl);
    const callback = await submitSignInForm(jar, form, { action: 'cancel' });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const response = await send(jar, callback);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain(messages.cancelled);
    expectNoNewSession(response);
  });

  it('signInAttemptCookieIsClearedAtCallback', async () => {
    const { jar, callback } = await reachCallback(server().baseUrl);
    const response = await send(jar, callback);
    expect(response.status).toBe(303);
    expectCleared(response, attemptCookie);
    expect(jar.get(attemptCookie)).toBeUndefined();
    expect(jar.get(sessionCookie)).toBeDefined();
  });

  it('signInCookiesAreHttpOnlyLaxAndNotSecureOverHttp', async () => {
    const { jar, callback } = await reachCallback(server().baseUrl);
    const login = await fetchPath(server().baseUrl, '/auth/login?next=/');
    const finished = await send(jar, callback);
    for (const header of [setCookieFor(login, attemptCookie), setCookieFor(finished, sessionCookie)]) {
      const attributes = cookieAttributes(header ?? '');
      expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
      expect(attributes).not.toContain('secure');
    }
  });
});

describe('return path after sign-in', () => {
  const server = serverForThisBlock();

  it.each([
    ['protocolRelativeNextIsReplacedByHome', '//evil.com'],
    ['slashBackslashNextIsReplacedByHome', '/\\evil.com'],
    ['absoluteNextIsReplacedByHome', 'https://evil.com'],
    ['encodedSlashesNextIsReplacedByHome', '/%2F%2Fevil.com'],
    ['javascriptNextIsReplacedByHome', 'javascript:alert(1)'],
    ['signInRouteNextIsReplacedByHome', '/auth/login'],
  ])('%s: %j', async (_name, next) => {
    const { landedOn } = await signIn(server().baseUrl, { email: 'reader@acme.dev', next });
    expect(landedOn).toBe('/');
  });

  it('honoursSameSitePathWithQuery', async () => {
    const { landedOn } = await signIn(server().baseUrl, { email: 'reader@acme.dev', next: '/faqs/?q=1' });
    expect(landedOn).toBe('/faqs/?q=1');
  });

  it('attemptCookieStoresTheValidatedReturnPath', async () => {
    const { jar } = await openSignInForm(server().baseUrl, '//evil.com');
    expect(readAttempt(jar, server().config.sessionSecret).next).toBe('/');
  });

  it('forgedReturnPathInSignedAttemptIsValidatedAgainAtCallback', async () => {
    const secret = server().config.sessionSecret;
    const { jar, callback } = await reachCallback(server().baseUrl);
    plantCookie(jar, attemptCookie, signAttempt({ ...readAttempt(jar, secret), next: '//evil.com' }, secret));
    const response = await send(jar, callback);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
  });
});

describe('session attacks', () => {
  const server = serverForThisBlock();
  const db = () => server().store.db;

  async function storeSession(sessionId: string, expiresAt: Date) {
    await createSession(db(), {
      idHash: hashSessionId(sessionId),
      email: 'reader@acme.dev',
      emailVerified: true,
      hostedDomain: 'acme.dev',
      name: 'reader',
      expiresAt,
    });
  }

  it('tamperedSessionCookieIsRefused', async () => {
    const sessionId = await signedInSession(server().baseUrl, 'reader@acme.dev');
    const flipped = `${sessionId.slice(0, -1)}${sessionId.endsWith('A') ? 'B' : 'A'}`;
    const forgeries = [
      ['one character flipped', flipped],
      ['garbage', 'garbage'],
      ['five kilobytes', 'a'.repeat(5_000)],
      ['the stored hash instead of the id', hashSessionId(sessionId)],
      ['the id with a trailing space', `${sessionId}%20`],
    ];
    for (const [what, forged] of forgeries) {
      const response = await fetchPath(server().baseUrl, '/faqs/', withSession(forged));
      expect(response.status, what).toBe(401);
    }
    expect((await fetchPath(server().baseUrl, '/healthz')).status).toBe(200);
    expect((await fetchPath(server().baseUrl, '/faqs/', withSession(sessionId))).status).toBe(200);
  });

  it('expiredSessionIsRefusedAndDeleted', async () => {
    const sessionId = newSessionId();
    await storeSession(sessionId, new Date(Date.now() - 1_000));
    expect((await fetchPath(server().baseUrl, '/faqs/', withSession(sessionId))).status).toBe(401);
    expect(await findSessionByIdHash(db(), { idHash: hashSessionId(sessionId) })).toBeUndefined();
  });

  it('idleSessionIsRefusedAndDeleted', async () => {
    const sessionId = newSessionId();
    const idHash = hashSessionId(sessionId);
    await storeSession(sessionId, new Date(Date.now() + 3_600_000));
    await touchSession(db(), {
      idHash,
      lastSeenAt: new Date(Date.now() - server().config.sessionIdleTimeoutMs - 1_000),
    });
    expect((await fetchPath(server().baseUrl, '/faqs/', withSession(sessionId))).status).toBe(401);
    expect(await findSessionByIdHash(db(), { idHash })).toBeUndefined();
  });

  it('sessionJustInsideIdleTimeoutStillWorks', async () => {
    const sessionId = newSessionId();
    const idHash = hashSessionId(sessionId);
    await storeSession(sessionId, new Date(Date.now() + 3_600_000));
    await touchSession(db(), {
      idHash,
      lastSeenAt: new Date(Date.now() - server().config.sessionIdleTimeoutMs + 60_000),
    });
    expect((await fetchPath(server().baseUrl, '/faqs/', withSession(sessionId))).status).toBe(200);
  });

  it('sessionFixationPlantedCookieIsReplaced', async () => {
    const attackerSession = await signedInSession(server().baseUrl, 'attacker@acme.dev');
    const victimJar = new CookieJar();
    plantCookie(victimJar, sessionCookie, attackerSession);
    const { response } = await signIn(server().baseUrl, { email: 'victim@acme.dev' }, victimJar);
    expect(response.status).toBe(303);

    const victimSession = victimJar.get(sessionCookie);
    expect(victimSession).toBeDefined();
    expect(victimSession).not.toBe(attackerSession);
    const me = await fetchPath(server().baseUrl, '/api/me', withSession(victimSession));
    expect(await me.json()).toMatchObject({ state: 'allowed', email: 'victim@acme.dev' });
    expect((await fetchPath(server().baseUrl, '/api/me', withSession(attackerSession))).status).toBe(401);
  });

  it('newSessionIdAtEverySignIn', async () => {
    const first = await signedInSession(server().baseUrl, 'reader@acme.dev');
    const second = await signedInSession(server().baseUrl, 'reader@acme.dev');
    expect(second).not.toBe(first);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('logout CSRF', () => {
  const server = serverForThisBlock();
  const isSignedIn = async (sessionId: string) =>
    (await fetchPath(server().baseUrl, '/api/me', withSession(sessionId))).status === 200;

  it('logoutByGetDoesNothing', async () => {
    const sessionId = await signedInSession(server().baseUrl, 'reader@acme.dev');
    const response = await fetchPath(server().baseUrl, '/auth/logout', withSession(sessionId, html));
    expect(response.ok).toBe(false);
    expect(setCookieFor(response, sessionCookie)).toBeUndefined();
    expect(await isSignedIn(sessionId)).toBe(true);
  });

  it.each([
    ['logoutFromForeignOriginIsRefused', () => ({ origin: 'https://evil.example' })],
    ['logoutWithoutOriginIsRefused', () => ({})],
    ['logoutFromOpaqueOriginIsRefused', () => ({ origin: 'null' })],
    ['logoutFromSiblingPortIsRefused', () => ({ origin: 'http://127.0.0.1:1' })],
    ['logoutWithOwnRefererButNoOriginIsRefused', (baseUrl: string) => ({ referer: `${baseUrl}/faqs/` })],
  ])('%s', async (_name, headersFor: (baseUrl: string) => Record<string, string>) => {
    const { baseUrl } = server();
    const sessionId = await signedInSession(baseUrl, 'reader@acme.dev');
    const response = await fetchPath(baseUrl, '/auth/logout', withSession(sessionId, headersFor(baseUrl)), 'POST');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'forbidden:origin' } });
    expect(setCookieFor(response, sessionCookie)).toBeUndefined();
    expect(await isSignedIn(sessionId)).toBe(true);
  });

  it('logoutFromOwnOriginEndsSessionServerSide', async () => {
    const sessionId = await signedInSession(server().baseUrl, 'reader@acme.dev');
    const response = await fetchPath(
      server().baseUrl,
      '/auth/logout',
      withSession(sessionId, { origin: server().baseUrl }),
      'POST',
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expectCleared(response, sessionCookie);
    expect((await fetchPath(server().baseUrl, '/faqs/', withSession(sessionId))).status).toBe(401);
    expect(await findSessionByIdHash(server().store.db, { idHash: hashSessionId(sessionId) })).toBeUndefined();
  });

  it('logoutFormOnTheGateSendsTheBrowserHome', async () => {
    const sessionId = await signedInSession(server().baseUrl, 'x@gmail.com');
    const response = await fetchPath(
      server().baseUrl,
      '/auth/logout',
      withSession(sessionId, { ...html, origin: server().baseUrl }),
      'POST',
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    expectCleared(response, sessionCookie);
    expect((await fetchPath(server().baseUrl, '/api/me', withSession(sessionId))).status).toBe(401);
  });
});

describe('/api/me', () => {
  const server = serverForThisBlock();

  it.each([
    ['signedOutGets401', undefined, 401, { state: 'signed-out', primaryDomains: ['acme.dev', 'acme.io'] }],
    ['allowedGets200', 'reader@acme.dev', 200, { state: 'allowed', email: 'reader@acme.dev' }],
    ['notAllowedGets403', 'x@gmail.com', 403, { state: 'not-allowed', email: 'x@gmail.com' }],
  ])('%s', async (_name, email, status, body) => {
    const sessionId = email ? await signedInSession(server().baseUrl, email) : undefined;
    const response = await fetchPath(server().baseUrl, '/api/me', sessionId ? withSession(sessionId) : {});
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const json = await response.json();
    expect(json).toMatchObject({ ...body, primaryDomains: ['acme.dev', 'acme.io'] });
    if (!email) expect(json).toEqual(body);
  });
});

describe('access decisions end to end through the development IdP', () => {
  const server = serverForThisBlock();

  it.each([
    { name: 'allowsAllowedDomain', email: 'reader@acme.dev', status: 200 },
    { name: 'allowsUpperCaseAllowedDomain', email: 'READER@ACME.IO', status: 200 },
    { name: 'allowsWhitelistedAddress', email: 'alex.partner@example.com', status: 200 },
    { name: 'rejectsAllowedDomainAsPrefixOfAttackerDomain', email: 'user@acme.dev.evil.com', status: 403 },
    { name: 'rejectsDomainSuffixWithoutAtBoundary', email: 'x@evilacme.dev', status: 403 },
    { name: 'rejectsSubdomainByDefault', email: 'x@sub.acme.dev', status: 403 },
    { name: 'rejectsPlusAddressingOnWhitelistedAddress', email: 'alex.partner+x@example.com', status: 403 },
    { name: 'rejectsUnverifiedEmail', email: 'reader@acme.dev', verified: false, status: 403 },
    { name: 'rejectsAccountWithoutWorkspaceClaim', email: 'reader@acme.dev', workspace: false, status: 403 },
  ])('$name: $email', async ({ email, verified, workspace, status }) => {
    const sessionId = await signedInSession(server().baseUrl, email, { verified, workspace });
    const response = await fetchPath(server().baseUrl, '/faqs/', withSession(sessionId, html));
    expect(response.status).toBe(status);
    const body = await response.text();
    if (status === 403) {
      expect(body).toContain(`signed in as <strong>${email}</strong>`);
      expect(body).not.toContain('/assets/js/');
    } else {
      expect(body).toContain('/assets/js/');
    }
  });

  it('markupInTheSignedInAddressIsEscapedOnTheGate', async () => {
    const email = '<img/src=x/onerror=alert(1)>@evil.com';
    const sessionId = await signedInSession(server().baseUrl, email);
    const response = await fetchPath(server().baseUrl, '/faqs/', withSession(sessionId, html));
    expect(response.status).toBe(403);
    const body = await response.text();
    expect(body).toContain('signed in as <strong>&lt;img/src=x/onerror=alert(1)&gt;@evil.com</strong>');
    expect(body).not.toContain('<img/src=x');
  });
});

describe('access policy file is re-checked on every request', () => {
  let directory: string;
  let policyFile: string;
  let server: TestServer;
  let labsSession: string;
  let devSession: string;
  const allDomains = ['acme.dev', 'acme.io', 'acme-labs.dev', 'acme.studio'];
  /** The file is stat'ed at most once a second; a distinct mtime makes the change visible whatever the clock does. */
  let version = 0;

  async function writePolicy(contents: string) {
    await writeFile(policyFile, contents);
    version += 1;
    const mtime = new Date(Date.now() + version * 10_000);
    await utimes(policyFile, mtime, mtime);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
  }

  const statusOf = async (sessionId: string) =>
    (await fetchPath(server.baseUrl, '/faqs/', withSession(sessionId, html))).status;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'handbook-policy-'));
    policyFile = path.join(directory, 'policy.json');
    await writeFile(policyFile, JSON.stringify({ domains: allDomains, addresses: [] }));
    server = await startServer({ LOG_LEVEL: 'silent', ACCESS_POLICY_FILE: policyFile });
    labsSession = await signedInSession(server.baseUrl, 'reader@acme-labs.dev');
    devSession = await signedInSession(server.baseUrl, 'reader@acme.dev');
  });
  afterAll(async () => {
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('removingDomainLocksOutItsExistingSessions', async () => {
    expect(await statusOf(labsSession)).toBe(200);
    await writePolicy(JSON.stringify({ domains: allDomains.filter((domain) => domain !== 'acme-labs.dev') }));
    const response = await fetchPath(server.baseUrl, '/faqs/', withSession(labsSession, html));
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('signed in as <strong>reader@acme-labs.dev</strong>');
    expect(await statusOf(devSession)).toBe(200);
  });

  it('brokenPolicyFileKeepsTheLastGoodPolicy', async () => {
    await writePolicy('{ "domains": [');
    expect(await statusOf(labsSession)).toBe(403);
    expect(await statusOf(devSession)).toBe(200);
  });

  it('invalidPolicyFileKeepsTheLastGoodPolicy', async () => {
    await writePolicy(JSON.stringify({ domains: ['acme-labs.dev'] }));
    expect(await statusOf(labsSession)).toBe(403);
    expect(await statusOf(devSession)).toBe(200);
  });
});

describe('responses', () => {
  const server = serverForThisBlock();
  let sessionId: string;
  const hashedScript = [...listSiteFiles(siteBuildDirectory)].find(
    (file) =>
      /^\/assets\/js\/main\.[0-9a-f]+\.js$/.test(file) &&
      existsSync(path.join(siteBuildDirectory, `${file}.br`)) &&
      existsSync(path.join(siteBuildDirectory, `${file}.gz`)),
  );

  beforeAll(async () => {
    sessionId = await signedInSession(server().baseUrl, 'reader@acme.dev');
  });

  it('found a hashed script with compressed twins in the build', () => {
    expect(hashedScript).toBeDefined();
  });

  it.each([['/'], ['/faqs/'], ['/no-such-page'], ['/search?q=ttl']])(
    'unauthenticatedNavigationGetsOnlyTheGate: %s',
    async (pathname) => {
      const response = await fetchPath(server().baseUrl, pathname, html);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await response.text();
      expect(body).toContain('Login with Google');
      expect(body).toContain('<strong>@acme.dev</strong> or <strong>@acme.io</strong>');
      expect(body).not.toContain('Firestore');
      expect(body).not.toContain('/assets/js/');
      expect(body).not.toContain('/assets/css/');
    },
  );

  it.each([
    ['jsonRequestGetsJson401', '/faqs/', { accept: 'application/json' }],
    ['scriptRequestGetsJson401', hashedScript ?? '', {}],
    ['searchApiRequestGetsJson401', '/api/search?q=firestore', { accept: '*/*' }],
    ['searchApiJsonRequestGetsJson401', '/api/search?q=firestore', { accept: 'application/json' }],
  ])('%s', async (_name, pathname, headers: Record<string, string>) => {
    const response = await fetchPath(server().baseUrl, pathname, headers);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized:session' } });
  });

  it('markupInTheRequestedPathIsNotReflectedIntoTheGate', async () => {
    const response = await server().app.inject({
      method: 'GET',
      url: '/faqs/?q="><script>alert(1)</script>',
      headers: html,
    });
    expect(response.statusCode).toBe(401);
    expect(response.body).not.toContain('<script>alert(1)');
    expect(response.body).not.toContain('"><');
    expect(response.body).toContain('href="/auth/login?next=%2Ffaqs%2F%3Fq%3D%2522%253E%253Cscript%253E');
  });

  it('healthCheckAnswersWithoutSession', async () => {
    const response = await fetchPath(server().baseUrl, '/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('authenticatedPagesMayOnlySitInThePrivateCacheAndAreRevalidated', async () => {
    const response = await fetchPath(server().baseUrl, '/faqs/', withSession(sessionId, html));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('hashedAssetsAreImmutableInThePrivateCache', async () => {
    const response = await fetchPath(server().baseUrl, hashedScript ?? '', withSession(sessionId));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
  ])('servesPrecompressedFile for Accept-Encoding %j as %s', async (acceptEncoding, encoding) => {
    for (const pathname of ['/faqs/', hashedScript ?? '']) {
      const response = await fetchPath(
        server().baseUrl,
        pathname,
        withSession(sessionId, { 'accept-encoding': acceptEncoding }),
      );
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get('content-encoding'), pathname).toBe(encoding);
      expect((await response.text()).length, pathname).toBeGreaterThan(0);
    }
  });

  // fetch() adds `cache-control: no-cache` to any request with If-None-Match (Fetch standard), which rightly
  // defeats the 304; a browser revalidating its own cache does not, so these requests go in through inject.
  it('answersConditionalRequestWith304', async () => {
    const headers = withSession(sessionId, { ...html, 'accept-encoding': 'br' });
    const first = await server().app.inject({ method: 'GET', url: '/faqs/', headers });
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    const second = await server().app.inject({
      method: 'GET',
      url: '/faqs/',
      headers: { ...headers, 'if-none-match': String(etag) },
    });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
  });

  it('conditionalRequestWithoutSessionStillGetsTheGate', async () => {
    const headers = { ...html, 'accept-encoding': 'br' };
    const first = await server().app.inject({ method: 'GET', url: '/faqs/', headers: withSession(sessionId, headers) });
    const response = await server().app.inject({
      method: 'GET',
      url: '/faqs/',
      headers: { ...headers, 'if-none-match': String(first.headers.etag) },
    });
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('Login with Google');
  });

  // Regression: one URL is served as br, gzip or identity depending on Accept-Encoding, so it must say it varies
  // (@fastify/static does not add the header itself).
  it('compressedResponsesSayTheyVaryOnAcceptEncoding', async () => {
    for (const pathname of ['/faqs/', hashedScript ?? '']) {
      const response = await fetchPath(server().baseUrl, pathname, withSession(sessionId, { 'accept-encoding': 'br' }));
      expect(response.headers.get('content-encoding'), pathname).toBe('br');
      expect(response.headers.get('vary') ?? '', pathname).toMatch(/accept-encoding/i);
    }
  });

  it.each([
    ['gate', false],
    ['site', true],
  ])('securityHeadersOn%s', async (_name, signedIn) => {
    const response = await fetchPath(server().baseUrl, '/', signedIn ? withSession(sessionId, html) : html);
    expect(response.status).toBe(signedIn ? 200 : 401);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+;/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it.each([
    ['headWithoutSessionIsGated', false, 401],
    ['headWithSessionIsServed', true, 200],
  ])('%s', async (_name, signedIn, status) => {
    for (const pathname of ['/faqs/', hashedScript ?? '']) {
      const response = await fetchPath(
        server().baseUrl,
        pathname,
        signedIn ? withSession(sessionId, html) : html,
        'HEAD',
      );
      expect(response.status, pathname).toBe(status);
      expect(await response.text(), pathname).toBe('');
    }
  });
});

describe('over https, with an external OpenID provider', () => {
  const publicUrl = 'https://docs.example.test';
  // A plain-http server stands in for the external provider: its development IdP answers discovery.
  const issuer = serverForThisBlock();
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({
      LOG_LEVEL: 'silent',
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: `${issuer().baseUrl}/dev-idp`,
      OIDC_CLIENT_ID: 'acme-handbook-development',
      OIDC_CLIENT_SECRET: 'not-needed-to-start-a-sign-in',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sendsHsts', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/', headers: html });
    expect(response.statusCode).toBe(401);
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('signInAttemptCookieIsHostPrefixedSecureHttpOnlyLax', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/auth/login?next=/faqs/' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(new RegExp(`^${issuer().baseUrl}/dev-idp/`));
    const cookies = [response.headers['set-cookie'] ?? []].flat();
    const header = cookies.find((cookie) => cookie.startsWith(`__Host-${attemptCookie}=`));
    expect(header, cookies.join('\n')).toBeDefined();
    const attributes = cookieAttributes(header ?? '');
    expect(attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/']));
    expect(attributes.some((attribute) => attribute.startsWith('domain='))).toBe(false);
  });

  it.each([
    ['unprefixedSessionCookieIsIgnored', sessionCookie, 401],
    ['hostPrefixedSessionCookieIsHonoured', `__Host-${sessionCookie}`, 200],
  ])('%s', async (_name, cookieName, status) => {
    const sessionId = newSessionId();
    await createSession(server.store.db, {
      idHash: hashSessionId(sessionId),
      email: 'reader@acme.dev',
      emailVerified: true,
      hostedDomain: 'acme.dev',
      name: 'reader',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: `${cookieName}=${sessionId}` },
    });
    expect(response.statusCode).toBe(status);
  });
});

describe('over https, with the development IdP', () => {
  const publicUrl = 'https://docs.example.test';
  const server = serverForThisBlock({ PUBLIC_URL: publicUrl, ALLOW_DEVELOPMENT_SIGN_IN: 'true' });

  // Regression: behind the TLS-terminating proxy that any https PUBLIC_URL implies, oidc-provider built its endpoint
  // URLs from the plain-http request it saw, so discovery advertised http://... and openid-client refused them.
  it('developmentIdpAdvertisesItsEndpointsOnThePublicUrl', async () => {
    const response = await server().app.inject({
      method: 'GET',
      url: '/dev-idp/.well-known/openid-configuration',
      headers: { host: 'docs.example.test' },
    });
    expect(response.statusCode).toBe(200);
    const discovery = response.json() as Record<string, unknown>;
    expect(discovery.issuer).toBe(`${publicUrl}/dev-idp`);
    for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'jwks_uri']) {
      expect(discovery[endpoint], endpoint).toMatch(new RegExp(`^${publicUrl}/dev-idp/`));
    }
  });

  // The same regression as the reader met it: "Login with Google" answered 503 "could not be reached".
  it('developmentSignInStartsBehindHttpsPublicUrl', async () => {
    const realFetch = globalThis.fetch;
    // docs.example.test resolves nowhere: the server's calls to its own public URL are answered in process, over
    // plain http, as the TLS-terminating proxy in front of it would forward them.
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.origin !== publicUrl) return realFetch(input, init);
      const answer = await server().app.inject({
        method: 'GET',
        url: `${url.pathname}${url.search}`,
        headers: { ...Object.fromEntries(request.headers), host: url.host },
      });
      return new Response(answer.body, {
        status: answer.statusCode,
        headers: { 'content-type': String(answer.headers['content-type']) },
      });
    });
    try {
      const response = await server().app.inject({ method: 'GET', url: '/auth/login?next=/faqs/' });
      expect(response.statusCode).toBe(303);
      expect([response.headers['set-cookie'] ?? []].flat().join('\n')).toMatch(/^__Host-acme_sign_in=/m);
    } finally {
      spy.mockRestore();
    }
  });
});
