import type { SearchResponse, SearchResultDto } from '../../../../server/src/search/contract';

export type { SearchResultDto, TextPiece } from '../../../../server/src/search/contract';

/** Asks the server's search (the same engine as Dev Copilot) for a query; aborted when a newer query supersedes it. */
export async function searchDocs(
  query: string,
  options: { limit?: number; context?: string | undefined; signal?: AbortSignal },
): Promise<SearchResultDto[]> {
  const parameters = new URLSearchParams({ q: query, limit: String(options.limit ?? 8) });
  if (options.context) parameters.set('ctx', options.context);
  const response = await fetch(`/api/search?${parameters}`, {
    signal: options.signal,
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`Search failed (${response.status})`);
  return ((await response.json()) as SearchResponse).results;
}

/** The folder of a page that groups several docs (`/Workshops/x` is in `/Workshops/`), for "See all results in". */
export function searchContextOf(pathname: string): { path: string; label: string } | undefined {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length < 2 || !segments[0]) return undefined;
  const folder = segments[0];
  let label = folder;
  try {
    label = decodeURIComponent(folder);
  } catch {
    // A malformed escape stays as written.
  }
  return { path: `/${folder}/`, label };
}

/** The /search page's address for a query, keeping the spec's q, ctx and version parameters. */
export function searchPageUrl(query: string, context?: string, version?: string): string {
  const parameters = new URLSearchParams({ q: query });
  if (context) parameters.set('ctx', context);
  if (version) parameters.set('version', version);
  return `/search?${parameters}`;
}
