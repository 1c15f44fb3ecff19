import {
  type CreatedToken,
  type CreateTokenRequest,
  createdTokenSchema,
  type PersonalToken,
  tokenListSchema,
} from '@acme/contract';

export { defaultTokenLifetimeDays, maxTokenLifetimeDays, maxTokenNameCharacters } from '@acme/contract';
export type { CreatedToken, PersonalToken };

/** A refusal of the token API, with the server's message for the reader. */
export class TokenRequestFailed extends Error {}

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const refusal = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    throw new TokenRequestFailed(refusal.error?.message ?? `The request failed (${response.status}). Try again.`);
  }
  return response;
}

export async function listTokens(): Promise<PersonalToken[]> {
  return tokenListSchema.parse(await (await call('GET', '/api/tokens')).json()).tokens;
}

export async function createToken(request: CreateTokenRequest): Promise<CreatedToken> {
  return createdTokenSchema.parse(await (await call('POST', '/api/tokens', request)).json());
}

export async function revokeToken(id: string): Promise<void> {
  await call('DELETE', `/api/tokens/${encodeURIComponent(id)}`);
}
