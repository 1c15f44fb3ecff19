/** What the server's GET /api/me says about the reader. */
export type AuthState =
  | { status: 'allowed' }
  | { status: 'checking' }
  | { status: 'signed-out'; primaryDomains: string[] }
  | { status: 'not-allowed'; email: string; primaryDomains: string[] };

type MeResponse = { state?: string; email?: string; primaryDomains?: string[] };

/**
 * Reads /api/me. Anything that is not a clear "signed out" or "not allowed" (a dev server without the auth server,
 * a network blip) keeps the reader where they are: the server already checked them when it served this page.
 */
export async function fetchAuthState(signal?: AbortSignal): Promise<AuthState> {
  let response: Response;
  try {
    response = await fetch('/api/me', { credentials: 'same-origin', headers: { accept: 'application/json' }, signal });
  } catch {
    return { status: 'allowed' };
  }
  if (response.status !== 401 && response.status !== 403) return { status: 'allowed' };
  const body = (await response.json().catch(() => ({}))) as MeResponse;
  const primaryDomains = body.primaryDomains ?? [];
  if (body.state === 'not-allowed') return { status: 'not-allowed', email: body.email ?? '', primaryDomains };
  return { status: 'signed-out', primaryDomains };
}
