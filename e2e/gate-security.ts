import { expect } from 'vitest';
import { cookieSealer } from '../server/src/auth/cookie-sealer.js';
import { hashSessionId, sessionCookieCodec } from '../server/src/auth/session-cookie.js';
import type { TestServer } from './harness';
import { type CookieJar, openSignInForm, signIn, submitSignInForm } from './sign-in';

/** What the gate-security-*.test.ts files share: cookie names, the gate's messages, forged requests and checks. */

export const sessionCookie = 'acme_session';
export const attemptCookie = 'acme_sign_in';
export const html = { accept: 'text/html,application/xhtml+xml' };
export const messages = {
  expired: 'That sign-in attempt expired or was started in another browser tab.',
  stateMismatch: 'That sign-in response did not match the attempt this browser started',
  cancelled: 'Sign-in was cancelled.',
};

export type SignInAttempt = { state: string; nonce: string; codeVerifier: string; next: string; startedAt: number };

/** Runs the flow by hand up to the moment the browser would request our callback. */
export async function reachCallback(baseUrl: string, email = 'reader@acme.dev') {
  const { jar, form } = await openSignInForm(baseUrl);
  const callback = await submitSignInForm(jar, form, { email, verified: 'yes', workspace: 'yes', action: 'sign-in' });
  return { jar, callback };
}

/** Puts a cookie into the jar as if the server (or an attacker on the reader's machine) had set it. */
export function plantCookie(jar: CookieJar, name: string, value: string) {
  jar.store(new Response(null, { headers: [['set-cookie', `${name}=${value}; Path=/`]] }));
}

export function readAttempt(jar: CookieJar, secret: string): SignInAttempt {
  const raw = jar.get(attemptCookie);
  if (!raw) throw new Error('No sign-in attempt cookie in the jar.');
  const unsigned = cookieSealer(secret).unsign(decodeURIComponent(raw));
  if (!unsigned.valid || unsigned.value === null) throw new Error('The sign-in attempt cookie is not sealed by us.');
  return JSON.parse(unsigned.value) as SignInAttempt;
}

/** A cookie value sealed exactly the way the server seals its own attempts. */
export function signAttempt(attempt: SignInAttempt, secret: string): string {
  return encodeURIComponent(cookieSealer(secret).sign(JSON.stringify(attempt)));
}

export function setCookieFor(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((header) => header.startsWith(`${name}=`));
}

export function cookieAttributes(header: string): string[] {
  return header
    .split(';')
    .slice(1)
    .map((attribute) => attribute.trim().toLowerCase());
}

export function expectNoNewSession(response: Response) {
  const header = setCookieFor(response, sessionCookie);
  expect(header === undefined || header.startsWith(`${sessionCookie}=;`), header).toBe(true);
}

export function expectCleared(response: Response, name: string) {
  const header = setCookieFor(response, name);
  expect(header, `${name} is cleared`).toBeDefined();
  expect(header).toMatch(new RegExp(`^${name}=;`));
  expect(cookieAttributes(header ?? '')).toContain('max-age=0');
}

/** One request without cookies other than those in `headers`, redirects not followed. */
export async function fetchPath(
  baseUrl: string,
  pathname: string,
  headers: Record<string, string> = {},
  method = 'GET',
) {
  return fetch(new URL(pathname, baseUrl), { method, headers, redirect: 'manual' });
}

export const withSession = (sessionId: string | undefined, headers: Record<string, string> = {}) => ({
  ...headers,
  cookie: `${sessionCookie}=${sessionId ?? ''}`,
});

/** The session cookie's value the server issues for a session id: the id and its tag. */
export const cookieValueFor = (server: TestServer, sessionId: string) =>
  sessionCookieCodec(server.config.sessionSecret).valueOf(sessionId);

/** What the store keeps for the session a cookie value carries: the hash of its id, without the tag. */
export const idHashOfCookie = (cookieValue: string) =>
  hashSessionId(cookieValue.slice(0, cookieValue.lastIndexOf('.')));

/** Signs in through the development IdP and returns the new session cookie's value. */
export async function signedInSession(
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
