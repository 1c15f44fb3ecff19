import { LRUCache } from 'lru-cache';
import type { Config } from '../config.js';
import { recordSignIn } from '../store/accounts.js';
import type { Database } from '../store/database.js';
import { claimLegacyReaderRows } from '../store/legacy-rows.js';
import {
  createSignedInSession,
  deleteSession,
  findSessionByIdHash,
  type NewSession,
  type SessionWithAccount,
  touchSession,
} from '../store/sessions.js';
import { legacyReaderKey, type ReaderSubject, readerKeyOf } from './reader-identity.js';

/** Writing last-seen on every request would cost a write per file; once a minute keeps idle expiry accurate enough. */
const touchIntervalMs = 60_000;

/**
 * Sessions as the gate sees them, each with its account's current address: read through a short cache, expired ones
 * ended on sight. The cache spares serving a page's dozens of files a database round trip each; sign-out, expiry and a
 * sign-in of the same account on this instance drop its entries at once, another instance's are seen within
 * `cacheTtlMs`. It holds `cachedSessions`, the least recently used going first.
 */
export function createSessionService(options: {
  db: Database;
  config: Pick<Config, 'sessionIdleTimeoutMs'>;
  cacheTtlMs?: number;
  cachedSessions?: number;
  now?: () => number;
}) {
  const { db, config, now = Date.now } = options;
  const recent = <Row extends object | boolean>() =>
    new LRUCache<string, Row>({
      max: options.cachedSessions ?? 10_000,
      ttl: options.cacheTtlMs ?? 5_000,
      // Read the clock on every look (no 1 ms reuse), so a test's clock moves at once.
      perf: { now },
      ttlResolution: 0,
    });
  const cache = recent<SessionWithAccount>();
  /**
   * Id hashes known to name no session, for as long as a cached row may live: ended here, or not in the store. A
   * forged or stale cookie sent again is then refused without a read (a flood of one such cookie was 1.1k requests a
   * second, each a query), and a read under way when its session ended does not cache it again. An id cannot come to
   * name a session later: sign-in makes a new random one.
   */
  const gone = recent<true>();
  const markGone = (idHash: string) => gone.set(idHash, true);
  const isGone = (idHash: string) => gone.get(idHash) === true;

  /** Drops the cached sessions of an account, so the next request reads its address as the latest sign-in left it. */
  function forgetAccount({ issuer, subject }: ReaderSubject) {
    const stale = [...cache.entries()].filter(([, row]) => row.issuer === issuer && row.subject === subject);
    for (const [idHash] of stale) cache.delete(idHash);
  }

  async function end(idHash: string) {
    cache.delete(idHash);
    markGone(idHash);
    await deleteSession(db, { idHash });
  }

  /** A cached session that needs nothing done now (not expired, not due a touch), for answers that cannot wait. */
  function peek(idHash: string): SessionWithAccount | undefined {
    const session = cache.get(idHash);
    if (!session) return undefined;
    const at = now();
    const idleFor = at - session.lastSeenAt.getTime();
    if (session.expiresAt.getTime() <= at || idleFor >= Math.min(touchIntervalMs, config.sessionIdleTimeoutMs)) {
      return undefined;
    }
    return session;
  }

  return {
    peek,
    /** Whether this id hash is known, without a read, to name no session. */
    isGone,
    /** The live session for this id hash, or undefined when there is none or it has expired (it is then deleted). */
    async find(idHash: string): Promise<SessionWithAccount | undefined> {
      const at = now();
      let session = cache.get(idHash);
      if (!session) {
        if (isGone(idHash)) return undefined;
        session = await findSessionByIdHash(db, { idHash });
        if (!session) {
          markGone(idHash);
          return undefined;
        }
        if (!isGone(idHash)) cache.set(idHash, session);
      }
      const idleFor = at - session.lastSeenAt.getTime();
      if (session.expiresAt.getTime() <= at || idleFor >= config.sessionIdleTimeoutMs) {
        await end(idHash);
        return undefined;
      }
      if (idleFor >= touchIntervalMs) {
        const lastSeenAt = new Date(at);
        await touchSession(db, { idHash, lastSeenAt });
        const cached = cache.get(idHash);
        // The touched row replaces the cached one without renewing its time to live (a read renews nothing).
        if (cached) cache.set(idHash, { ...cached, lastSeenAt }, { noUpdateTTL: true });
      }
      return session;
    },
    /**
     * Stores a new session, its address the account's current one. `claimLegacyRows` (only for a session the policy
     * allows) hands it the Dev Copilot rows stored under its exact address before rows were keyed on subjects; returns
     * how many threads it claimed.
     */
    async start(session: NewSession, { claimLegacyRows }: { claimLegacyRows: boolean }): Promise<number> {
      await createSignedInSession(db, session);
      forgetAccount(session);
      gone.delete(session.idHash);
      if (!claimLegacyRows) return 0;
      return claimLegacyReaderRows(db, { reader: readerKeyOf(session), legacyReader: legacyReaderKey(session.email) });
    },
    /** Keeps the address of a sign-in that got no session as the account's current one. */
    async recordSignIn(account: Parameters<typeof recordSignIn>[1]) {
      await recordSignIn(db, account);
      forgetAccount(account);
    },
    end,
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
