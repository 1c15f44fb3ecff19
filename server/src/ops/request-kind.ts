/** What a request was for, as the metrics count it: the reader's pages and their assets, the APIs, signing in. */
export type RequestKind = 'page' | 'asset' | 'api' | 'sign-in' | 'other';

export const requestKinds: readonly RequestKind[] = ['page', 'asset', 'api', 'sign-in', 'other'];

/**
 * Sorts a request by its method and path (without query) with a few string checks, cheap enough for every request
 * of the gate. Whatever the gate answers a path with (the file, the sign-in page, the site's 404) counts under what
 * was asked for: a stranger's page request answered 401 is a page with a 4xx status.
 */
export function requestKind(method: string, path: string): RequestKind {
  if (path.startsWith('/api/')) return 'api';
  if (path.startsWith('/auth/') || path.startsWith('/dev-idp/')) return 'sign-in';
  if (method !== 'GET' && method !== 'HEAD') return 'other';
  if (path === '/healthz' || path === '/readyz') return 'other';
  // Docusaurus pages have clean URLs (or .html ones); anything else with an extension is a file a page loads.
  const lastSegment = path.lastIndexOf('/');
  const extension = path.indexOf('.', lastSegment);
  return extension === -1 || path.endsWith('.html') ? 'page' : 'asset';
}
