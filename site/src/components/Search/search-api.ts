import { maxSearchQueryCharacters, type SearchCorrection, type SearchResponse } from '@acme/contract';
import { sessionEndedMessage } from '../Auth/session-ended';

export type { SearchCorrection, SearchResultDto, TextPiece } from '@acme/contract';
export { maxSearchQueryCharacters } from '@acme/contract';

/**
 * A search the server refused (or a session that ended), with its message; anything else is an outage. `askable`:
 * Dev Copilot can still take the query as a question (its limits are its own); not so after the session ended.
 */
export class SearchRefused extends Error {
  constructor(
    message: string,
    readonly askable = true,
  ) {
    super(message);
  }
}

/** Asks the server's search (the same engine as Dev Copilot) for a query; aborted when a newer query supersedes it. */
export async function searchDocs(
  query: string,
  options: { limit?: number; context?: string | undefined; signal?: AbortSignal },
): Promise<Pick<SearchResponse, 'results' | 'missing' | 'corrected'>> {
  const parameters = new URLSearchParams({ q: query, limit: String(options.limit ?? 8) });
  if (options.context) parameters.set('ctx', options.context);
  const response = await fetch(`/api/search?${parameters}`, {
    signal: options.signal,
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (response.status === 401) throw new SearchRefused(sessionEndedMessage, false);
  if (response.status === 400 || response.status === 429) {
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    throw new SearchRefused(body.error?.message ?? 'The search could not be run.');
  }
  if (!response.ok) throw new Error(`Search failed (${response.status})`);
  const body = (await response.json()) as Partial<SearchResponse>;
  return { results: body.results ?? [], missing: body.missing ?? [], corrected: body.corrected ?? [] };
}

/** The folder of a page that groups several docs (`/Workshops/x` is in `/Workshops/`), for "See all results in". */
export function searchContextOf(pathname: string): { path: string; label: string } | undefined {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length < 2 || !segments[0]) return undefined;
  const folder = segments[0];
  return { path: `/${folder}/`, label: decodedPath(folder) };
}

/** The /search page's address for a query, keeping the spec's q, ctx and version parameters. */
export function searchPageUrl(query: string, context?: string, version?: string): string {
  const parameters = new URLSearchParams({ q: query });
  if (context) parameters.set('ctx', context);
  if (version) parameters.set('version', version);
  return `/search?${parameters}`;
}

/** Where a hit sits: its sidebar path, then its page when the hit is a section of it. */
export function pathOf(result: { breadcrumbs: string[]; pageTitle: string; heading: string | null }): string {
  const trail = result.breadcrumbs.length ? result.breadcrumbs : [result.pageTitle];
  return result.heading && trail.at(-1) !== result.pageTitle
    ? [...trail, result.pageTitle].join(' › ')
    : trail.join(' › ');
}

/** A path parameter as a reader reads it; a malformed escape stays as written. */
export function decodedPath(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Tells the server that a result of this search was opened, so the maintainers' insights can tell searches that
 * helped from searches that did not. Kept alive across the navigation it comes with; a failure changes nothing here.
 */
export function reportResultOpened(query: string): void {
  const q = query.trim().slice(0, maxSearchQueryCharacters);
  if (!q) return;
  fetch('/api/search/opened', {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ q }),
  }).catch(() => undefined);
}

/**
 * The words to name as missing under the results: the server's, less the word still being typed (a search box
 * searches at every keystroke, and "terr" is missing only until "terraform" is typed whole).
 */
export function missingToShow(query: string, missing: readonly string[]): string[] {
  const typing = wordBeingTyped(query);
  return missing.filter((word) => word !== typing);
}

/** The last word of a query still being typed (no space after it yet), lower-cased; a box searches at each keystroke. */
const wordBeingTyped = (query: string) =>
  /\s$/.test(query) ? undefined : query.trim().split(/\s+/).at(-1)?.toLowerCase();

/** A word as the server compares it: lower-cased, accents off. */
const folded = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** What a screen reader hears after the count when typos were corrected: " for onboarding checklist". */
export function searchedFor(query: string, corrected: readonly SearchCorrection[]): string {
  const pieces = correctedQuery(query, corrected);
  return pieces ? ` for ${pieces.map((piece) => piece.text).join('')}` : '';
}

/**
 * The query as the search read it, in pieces, each corrected word marked ("Showing results for **onboarding**
 * checklist"); undefined when it corrected nothing, or only the word still being typed ("onboa" is not yet a typo).
 */
export function correctedQuery(
  query: string,
  corrected: readonly SearchCorrection[],
): Array<{ text: string; corrected: boolean }> | undefined {
  const typing = wordBeingTyped(query);
  const words = new Map(corrected.filter(({ typed }) => typed !== typing).map(({ typed, word }) => [typed, word]));
  if (words.size === 0) return undefined;
  let changed = false;
  const pieces = query
    .trim()
    .split(/([\p{L}\p{N}]+)/u)
    .filter((piece) => piece !== '')
    .map((piece) => {
      const word = words.get(folded(piece));
      if (word === undefined) return { text: piece, corrected: false };
      changed = true;
      return { text: word, corrected: true };
    });
  return changed ? pieces : undefined;
}
