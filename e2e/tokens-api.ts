import { type CreatedToken, createdTokenSchema, type TokenList, tokenListSchema } from '@acme/contract';
import { readerCall } from './reader-call';

/** The token API as a signed-in reader calls it from the handbook's access-tokens page. */
export function tokensApi(baseUrl: string, cookie: string) {
  const call = readerCall(baseUrl, cookie);
  return {
    call,
    /**
     * Makes a token named `name`, or, as a reader would, `name (2)`, `name (3)`... when the reader holds one of that
     * name already (names of live tokens differ: 409 conflict:token_name).
     */
    async create(name = 'script', expiresInDays?: number): Promise<CreatedToken> {
      for (let copy = 1; ; copy += 1) {
        const named = copy === 1 ? name : `${name} (${copy})`;
        const response = await call('POST', '/api/tokens', { name: named, expiresInDays });
        if (response.status === 201) return createdTokenSchema.parse(await response.json());
        const refusal = (await response.json().catch(() => ({}))) as { error?: { code?: string } };
        if (refusal.error?.code !== 'conflict:token_name' || copy >= 50) {
          throw new Error(`POST /api/tokens answered ${response.status}`);
        }
      }
    },
    async list(): Promise<TokenList> {
      const response = await call('GET', '/api/tokens');
      if (response.status !== 200) throw new Error(`GET /api/tokens answered ${response.status}`);
      return tokenListSchema.parse(await response.json());
    },
    revoke: (id: string) => call('DELETE', `/api/tokens/${id}`),
  };
}

/** A request as a script sends it: the token in the Authorization header, no cookie, no Origin. */
export function withToken(token: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } };
}
