import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
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

/** Bytes of HMAC-SHA256 kept in the cookie: 128 bits, as many as guessing would need to find. */
const tagBytes = 16;

/**
 * The session cookie carries the id and a tag of it (`<id>.<tag>`), an HMAC under a key derived from SESSION_SECRET.
 * The id alone still decides (its hash must name a live session in the store); the tag lets a cookie we never issued
 * be refused without a store read, so a flood of made-up ids costs no more than a request without a cookie.
 */
export function sessionCookieCodec(secret: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'acme-handbook', 'session cookie tag', 32));
  const tagOf = (sessionId: string) =>
    createHmac('sha256', key).update(sessionId).digest().subarray(0, tagBytes).toString('base64url');
  return {
    /** The cookie value for a session id. */
    valueOf(sessionId: string): string {
      return `${sessionId}.${tagOf(sessionId)}`;
    },
    /** The session id a cookie value carries when we issued it; undefined for anything else. */
    sessionIdOf(value: string): string | undefined {
      const dot = value.lastIndexOf('.');
      if (dot <= 0) return undefined;
      const sessionId = value.slice(0, dot);
      const given = Buffer.from(value.slice(dot + 1));
      const expected = Buffer.from(tagOf(sessionId));
      return given.length === expected.length && timingSafeEqual(given, expected) ? sessionId : undefined;
    },
  };
}

export type SessionCookieCodec = ReturnType<typeof sessionCookieCodec>;

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
