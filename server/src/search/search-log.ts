import { LRUCache } from 'lru-cache';
import type { Database } from '../store/database.js';
import { recordSearchQuery, reviseSearchQuery } from '../store/search-queries.js';

/** Keystrokes this close together that extend or shorten the last query are one search being typed. */
const typingPauseMs = 30_000;
/** As many readers as are typing at once; when full, the longest idle goes first (its next key starts a new row). */
const maxTypingReaders = 10_000;

/**
 * New rows one reader may add in a day on one instance: far more searches than a person types (a search typed on is
 * one row), and a bound on what a script of a signed-in reader can add (300 searches a minute would otherwise be
 * 430,000 rows a day, kept for the retention and read by the insights). Past it the search is answered, not logged.
 */
export const maxLoggedSearchesPerDay = 500;
const dayMs = 86_400_000;

/** A search being typed: its row's id, what it says now, when, and its last write (revisions go in order). */
type Typing = { id: Promise<string>; query: string; at: number; written: Promise<void> };

/**
 * Logs what readers search for, one row per search rather than per keystroke: the search box asks at every key, so
 * "kub", "kube", "kubectl" typed in a row revise one row into "kubectl". Best effort: a failure is reported, never
 * felt by the reader, and two instances may each keep a row of one reader's typing.
 */
export function createSearchLog(db: Database, onError: (error: unknown) => void, now = () => Date.now()) {
  const typing = new LRUCache<string, Typing>({ max: maxTypingReaders });
  /** Rows each reader added on the current day (UTC), as `day:count`; evicted readers start again, at worst. */
  const added = new LRUCache<string, { day: number; count: number }>({ max: maxTypingReaders });
  const mayAdd = (reader: string, at: number) => {
    const day = Math.floor(at / dayMs);
    const today = added.get(reader);
    const count = today?.day === day ? today.count : 0;
    if (count >= maxLoggedSearchesPerDay) return false;
    added.set(reader, { day, count: count + 1 });
    return true;
  };
  return {
    /** Logs the search; the promise (which never rejects) settles once it is written, for tests to await. */
    record(reader: string, query: string, resultCount: number): Promise<void> {
      const at = now();
      const last = typing.get(reader);
      const continues =
        last !== undefined &&
        at - last.at < typingPauseMs &&
        (query.startsWith(last.query) || last.query.startsWith(query));
      if (last && continues) {
        last.at = at;
        last.query = query;
        // After the previous write, so the row ends with what was typed last, whichever connection is quicker.
        const typed = last;
        typed.written = typed.written
          .then(() => typed.id)
          .then((id) => reviseSearchQuery(db, { id, reader, query, resultCount }))
          .catch(onError);
        return typed.written;
      }
      if (!mayAdd(reader, at)) return Promise.resolve();
      const id = recordSearchQuery(db, { reader, query, resultCount });
      const written = id.then(() => undefined, onError);
      typing.set(reader, { id, query, at, written });
      return written;
    },
  };
}

export type SearchLog = ReturnType<typeof createSearchLog>;

/**
 * Whether a search came from the handbook's own pages (the search box, the /search page), as the browser tells with
 * `Sec-Fetch-Site`: `same-origin`, or no such header (a client that sends none). Any other value is a request the
 * reader did not make from the handbook: a link or form on another site (`cross-site`, `same-site`), an address typed
 * or followed (`none`). Logged, it would let anyone who gets a reader to open a link put words of their choosing in
 * the maintainers' insights, so it is answered and not logged.
 */
export const searchedFromHandbookPages = (secFetchSite: string | string[] | undefined): boolean =>
  secFetchSite === undefined || secFetchSite === 'same-origin';
