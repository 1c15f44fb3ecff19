import { createHash, randomBytes } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Config } from '../config.js';

/** 256 bits from the OS random source, base64url: the store keeps only its hash (the cookie is the one lasting copy). */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** What the store keeps instead of the id, so a leaked table cannot be replayed as cookies. */
export function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

/** `__Host-` pins the cookie to our exact origin; browsers accept the prefix only on Secure cookies. */
export function cookieNames(config: Pick<Config, 'secureCookies'>) {
  const prefix = config.secureCookies ? '__Host-' : '';
  return { session: `${prefix}acme_session`, signInAttempt: `${prefix}acme_sign_in` };
}

export function cookieOptions(config: Pick<Config, 'secureCookies'>, maxAgeSeconds?: number): CookieSerializeOptions {
  return {
    httpOnly: true,
    secure: config.secureCookies,
    sameSite: 'lax',
    path: '/',
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}
