import { maxSearchQueryCharacters, type SearchResponse } from '@acme/contract';

export type { SearchResultDto, TextPiece } from '@acme/contract';
export { maxSearchQueryCharacters } from '@acme/contract';

/** A search the server refused, with its message; anything else is an outage. */
export class SearchRefused extends Error {}

/** Asks the server's search (the same engine as Dev Copilot) for a query; aborted when a newer query supersedes it. */
export async function searchDocs(
  query: string,
  options: { limit?: number; context?: string | undefined; signal?: AbortSignal },
): Promise<Pick<SearchResponse, 'results' | 'missing'>> {
  const parameters = new URLSearchParams({ q: query, limit: String(options.limit ?? 8) });
  if (options.context) parameters.set('ctx', options.context);
  const response = await fetch(`/api/search?${parameters}`, {
    signal: options.signal,
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (response.status === 400 || response.status === 429) {
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    throw new SearchRefused(body.error?.message ?? 'The search could not be run.');
  }
  if (!response.ok) throw new Error(`Search failed (${response.status})`);
  const body = (await response.json()) as Partial<SearchResponse>;
  return { results: body.results ?? [], missing: body.missing ?? [] };
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
  const typing = /\s$/.test(query) ? undefined : query.trim().split(/\s+/).at(-1)?.toLowerCase();
  return missing.filter((word) => word !== typing);
}
