import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { addressKeyOf } from '../address-key.js';

const windowMs = 60_000;
/** How long a token verified here passes an address's refusal: an agent uses its token every few minutes at least. */
const knownTokenMs = 60 * 60_000;

/**
 * Addresses whose bearer credentials keep naming no live token. Checking one costs a read of the store, and anyone
 * can make up token-shaped strings (a flood of them was ~1,900 reads a second on PostgreSQL, slowing every reader);
 * once an address has failed `perMinute` times in its minute, its bearer requests are refused before any read until
 * the minute is over, except for tokens verified here lately. Counted on this instance, in memory: the point is to
 * spare the store, and a shared count would be a write per failure. Holds at most `addresses` addresses, the least
 * recently failing going first.
 */
export function createBearerFailureGuard(options: { perMinute: number; addresses?: number; now?: () => number }) {
  const { perMinute, now = Date.now } = options;
  const failures = new LRUCache<string, { count: number; since: number }>({ max: options.addresses ?? 10_000 });
  // Credentials this instance verified lately: readers behind one address (an office's NAT) are not refused for
  // another agent's stale token. Whole credentials, kept as hashes: a known token id with a made-up secret is as
  // made up as any (a review sent one unlimited), and a credential that fails is forgotten (a revoked token).
  const known = new LRUCache<string, true>({ max: options.addresses ?? 10_000, ttl: knownTokenMs });
  const keyOf = (credential: string) => createHash('sha256').update(credential).digest('base64url');
  return {
    /**
     * Seconds until the address may try again, or undefined while it is under its allowance, or when `credential` is
     * one verified here lately.
     */
    refusedFor(ip: string, credential?: string | undefined): number | undefined {
      if (credential !== undefined && known.has(keyOf(credential))) return undefined;
      const entry = failures.get(addressKeyOf(ip));
      if (!entry || entry.count < perMinute) return undefined;
      const left = entry.since + windowMs - now();
      return left > 0 ? Math.ceil(left / 1000) : undefined;
    },
    /** A credential that named a live token. */
    verified(credential: string) {
      known.set(keyOf(credential), true);
    },
    /** One more credential from the address that named no live token (or was not a credential at all). */
    failed(ip: string, credential?: string | undefined) {
      if (credential !== undefined) known.delete(keyOf(credential));
      const key = addressKeyOf(ip);
      const at = now();
      const entry = failures.get(key);
      if (!entry || at - entry.since >= windowMs) failures.set(key, { count: 1, since: at });
      else entry.count += 1;
    },
  };
}

export type BearerFailureGuard = ReturnType<typeof createBearerFailureGuard>;
