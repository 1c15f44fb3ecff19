import type { MeResponse } from '@acme/contract';

/** What the server's GET /api/me says about the reader. */
export type AuthState =
  | { status: 'allowed' }
  | { status: 'checking' }
  | { status: 'signed-out'; primaryDomains: string[] }
  | { status: 'not-allowed'; email: string; primaryDomains: string[] };

/** The contract's answer, each field possibly missing: a dev server without the auth server may answer anything. */
type MeBody = { state?: MeResponse['state']; email?: string; primaryDomains?: MeResponse['primaryDomains'] };

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
  const body = (await response.json().catch(() => ({}))) as MeBody;
  const primaryDomains = body.primaryDomains ?? [];
  if (body.state === 'not-allowed') return { status: 'not-allowed', email: body.email ?? '', primaryDomains };
  return { status: 'signed-out', primaryDomains };
}
