import { type CreatedToken, createdTokenSchema, type TokenList, tokenListSchema } from '@acme/contract';
import { readerCall } from './reader-call';

/** The token API as a signed-in reader calls it from the handbook's access-tokens page. */
export function tokensApi(baseUrl: string, cookie: string) {
  const call = readerCall(baseUrl, cookie);
  return {
    call,
    async create(name = 'script', expiresInDays?: number): Promise<CreatedToken> {
      const response = await call('POST', '/api/tokens', { name, expiresInDays });
      if (response.status !== 201) throw new Error(`POST /api/tokens answered ${response.status}`);
      return createdTokenSchema.parse(await response.json());
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
