import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyCookieOptions, UnsignResult } from '@fastify/cookie';

/** What @fastify/cookie accepts as `secret` besides secrets: an object that signs and unsigns. */
type CookieSigner = Exclude<FastifyCookieOptions['secret'], string | string[] | Buffer | Buffer[] | undefined>;

const ivBytes = 12;
const tagBytes = 16;
const refused: UnsignResult = { valid: false, renew: false, value: null };

/**
 * The "signer" of @fastify/cookie's signed cookies, sealing instead of signing: AES-256-GCM with a key derived from
 * SESSION_SECRET, so the sign-in attempt cookie (PKCE verifier, nonce, state) can be neither read nor forged.
 * @fastify/cookie only signs (HMAC), which would leave the verifier readable by anything that sees the cookie.
 */
export function cookieSealer(secret: string): CookieSigner {
  const key = Buffer.from(hkdfSync('sha256', secret, 'acme-handbook', 'sealed cookies', 32));
  return {
    sign(value) {
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    unsign(input) {
      const raw = Buffer.from(input, 'base64url');
      if (raw.length < ivBytes + tagBytes) return refused;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, ivBytes));
        decipher.setAuthTag(raw.subarray(ivBytes, ivBytes + tagBytes));
        const value = Buffer.concat([decipher.update(raw.subarray(ivBytes + tagBytes)), decipher.final()]);
        return { valid: true, renew: false, value: value.toString('utf8') };
      } catch {
        return refused;
      }
    },
  };
}
