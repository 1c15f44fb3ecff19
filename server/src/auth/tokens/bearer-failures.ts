import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { addressKeyOf } from '../address-key.js';

const windowMs = 60_000;
/** How long a token verified here passes an address's refusal: an agent uses its token every few minutes at least. */
const knownTokenMs = 60 * 60_000;
/** The ids of the tokens that exist are read again at most this often, and only while some address is refused. */
const liveIdsMs = 10_000;

export type BearerFailureOptions = {
  perMinute: number;
  addresses?: number;
  now?: () => number;
  /**
   * The ids of the tokens that exist now (one query): a refused address's credential that names one of them is checked
   * all the same, so a valid token is never refused for other people's made-up ones behind the same address.
   */
  liveTokenIds?: () => Promise<Iterable<string>>;
};

/**
 * The ids of live tokens, read in one query at most every `liveIdsMs` (a newer token, made on another instance, is seen
 * within that), one read at a time; a failed read keeps the ids read before.
 */
function liveIdSnapshot(read: (() => Promise<Iterable<string>>) | undefined, now: () => number) {
  let ids = new Set<string>();
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  const refresh = () => {
    reading ??= (read?.() ?? Promise.resolve([]))
      .then(
        (found) => {
          ids = new Set(found);
        },
        () => undefined,
      )
      .finally(() => {
        readAt = now();
        reading = undefined;
      });
    return reading;
  };
  return async (id: string): Promise<boolean> => {
    if (ids.has(id) || read === undefined) return ids.has(id);
    if (now() - readAt >= liveIdsMs) await refresh();
    return ids.has(id);
  };
}

/**
 * Addresses whose bearer credentials keep naming no live token. Checking one costs a read of the store, and anyone
 * can make up token-shaped strings (a flood of them was ~1,900 reads a second on PostgreSQL, slowing every reader);
 * once an address has failed `perMinute` times in its minute, its bearer requests are refused before any read until
 * the minute is over, except for tokens verified here lately and tokens that exist (their ids read in one query at most
 * every ten seconds: a review locked every coding agent behind one office address out for a minute with 30 made-up
 * tokens, again after each restart). Counted on this instance, in memory: the point is to spare the store, and a shared
 * count would be a write per failure. Holds at most `addresses` addresses, the least recently failing going first.
 */
export function createBearerFailureGuard(options: BearerFailureOptions) {
  const { perMinute, now = Date.now } = options;
  const failures = new LRUCache<string, { count: number; since: number }>({ max: options.addresses ?? 10_000 });
  // Credentials this instance verified lately pass without the query above. Whole credentials, kept as hashes, and
  // forgotten when they fail (a revoked token).
  const known = new LRUCache<string, true>({ max: options.addresses ?? 10_000, ttl: knownTokenMs });
  const isLive = liveIdSnapshot(options.liveTokenIds, now);
  const keyOf = (credential: string) => createHash('sha256').update(credential).digest('base64url');
  // A token id tried from an address, kept apart: made-up ids must never push the addresses' own counts out.
  const pairs = new LRUCache<string, { count: number; since: number }>({ max: options.addresses ?? 10_000 });
  /** Seconds left of the key's refusal, or undefined while it is under its allowance. */
  const refusal = (key: string, counts = failures) => {
    const entry = counts.get(key);
    if (!entry || entry.count < perMinute) return undefined;
    const left = entry.since + windowMs - now();
    return left > 0 ? Math.ceil(left / 1000) : undefined;
  };
  const count = (key: string, counts = failures) => {
    const at = now();
    const entry = counts.get(key);
    if (!entry || at - entry.since >= windowMs) counts.set(key, { count: 1, since: at });
    else entry.count += 1;
  };
  /** A token id tried from an address: a known id with made-up secrets is limited on its own. */
  const pairKey = (ip: string, tokenId: string) => `${addressKeyOf(ip)} ${tokenId}`;
  return {
    /**
     * Seconds until the address may try again, or undefined while it is under its allowance, or when `credential` is
     * one verified here lately, or names (`tokenId`) a token that exists and has not failed its own allowance here.
     */
    async refusedFor(ip: string, credential?: string, tokenId?: string): Promise<number | undefined> {
      if (credential !== undefined && known.has(keyOf(credential))) return undefined;
      const seconds = refusal(addressKeyOf(ip));
      if (seconds === undefined || tokenId === undefined) return seconds;
      if (refusal(pairKey(ip, tokenId), pairs) === undefined && (await isLive(tokenId))) return undefined;
      return seconds;
    },
    /** A credential that named a live token. */
    verified(credential: string) {
      known.set(keyOf(credential), true);
    },
    /** One more credential from the address that named no live token, with the token id it named if any. */
    failed(ip: string, credential?: string, tokenId?: string) {
      if (credential !== undefined) known.delete(keyOf(credential));
      count(addressKeyOf(ip));
      if (tokenId !== undefined) count(pairKey(ip, tokenId), pairs);
    },
  };
}

export type BearerFailureGuard = ReturnType<typeof createBearerFailureGuard>;
