import type { Config } from '../config.js';
import type { Database } from '../store/database.js';
import { claimLegacyOwnership } from '../store/owners.js';
import { createSession, deleteSession, findSessionByIdHash, type NewSession, touchSession } from '../store/sessions.js';
import { legacyOwnerKey, ownerKeyOf } from './reader-identity.js';
import { createSessionCache } from './session-cache.js';

type SessionRow = NonNullable<Awaited<ReturnType<typeof findSessionByIdHash>>>;

/** Writing last-seen on every request would cost a write per file; once a minute keeps idle expiry accurate enough. */
const touchIntervalMs = 60_000;

/** Sessions as the gate sees them: read through a short cache, expired ones ended on sight. */
export function createSessionService(options: {
  db: Database;
  config: Pick<Config, 'sessionIdleTimeoutMs'>;
  cacheTtlMs?: number;
}) {
  const { db, config } = options;
  const cacheTtlMs = options.cacheTtlMs ?? 5_000;
  const cache = createSessionCache<SessionRow>({ ttlMs: cacheTtlMs, maxEntries: 10_000 });
  /**
   * Id hashes known to name no session, for as long as a cached row may live: ended here, or not in the store. A
   * forged or stale cookie sent again is then refused without a read (a flood of one such cookie was 1.1k requests a
   * second, each a query), and a read under way when its session ended does not cache it again. An id cannot come to
   * name a session later: sign-in makes a new random one.
   */
  const gone = createSessionCache<true>({ ttlMs: cacheTtlMs, maxEntries: 10_000 });
  const markGone = (idHash: string) => gone.set(idHash, true, Date.now());
  const isGone = (idHash: string, now = Date.now()) => gone.get(idHash, now) === true;

  async function end(idHash: string) {
    cache.delete(idHash);
    markGone(idHash);
    await deleteSession(db, { idHash });
  }

  /** A cached session that needs nothing done now (not expired, not due a touch), for answers that cannot wait. */
  function peek(idHash: string, now = Date.now()): SessionRow | undefined {
    const session = cache.get(idHash, now);
    if (!session) return undefined;
    const idleFor = now - session.lastSeenAt.getTime();
    if (session.expiresAt.getTime() <= now || idleFor >= Math.min(touchIntervalMs, config.sessionIdleTimeoutMs)) {
      return undefined;
    }
    return session;
  }

  return {
    peek,
    /** Whether this id hash is known, without a read, to name no session. */
    isGone,
    /** The live session for this id hash, or undefined when there is none or it has expired (it is then deleted). */
    async find(idHash: string, now = Date.now()): Promise<SessionRow | undefined> {
      let session = cache.get(idHash, now);
      if (!session) {
        if (isGone(idHash, now)) return undefined;
        session = await findSessionByIdHash(db, { idHash });
        if (!session) {
          markGone(idHash);
          return undefined;
        }
        if (!isGone(idHash)) cache.set(idHash, session, now);
      }
      const idleFor = now - session.lastSeenAt.getTime();
      if (session.expiresAt.getTime() <= now || idleFor >= config.sessionIdleTimeoutMs) {
        await end(idHash);
        return undefined;
      }
      if (idleFor >= touchIntervalMs) {
        const lastSeenAt = new Date(now);
        await touchSession(db, { idHash, lastSeenAt });
        cache.update(idHash, (row) => ({ ...row, lastSeenAt }));
      }
      return session;
    },
    /**
     * Stores a new session. `claimLegacyRows` (only for a session the policy allows) hands it the Dev Copilot rows
     * stored under its exact address before ownership moved to subjects; returns how many threads it claimed.
     */
    async start(session: NewSession, { claimLegacyRows }: { claimLegacyRows: boolean }): Promise<number> {
      await createSession(db, session);
      gone.delete(session.idHash);
      if (!claimLegacyRows) return 0;
      return claimLegacyOwnership(db, { owner: ownerKeyOf(session), legacyOwner: legacyOwnerKey(session.email) });
    },
    end,
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
