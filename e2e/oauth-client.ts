import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { type CookieJar, send } from './sign-in';

/** A coding agent's local callback (http://127.0.0.1:<port>/callback): resolves with the first URL it is sent to. */
export async function startCallbackServer() {
  let arrived: (url: URL) => void = () => {};
  const received = new Promise<URL>((resolve) => {
    arrived = resolve;
  });
  const server = createServer((request, response) => {
    arrived(new URL(request.url ?? '/', 'http://127.0.0.1'));
    response.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The SDK's client OAuth provider as an agent implements it, kept in memory: it registers itself, remembers the PKCE
 * verifier and tokens, and hands the authorization URL to whatever opens the browser (`authorizationUrl`).
 */
export class InMemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  sentState: string | undefined;
  private information: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  constructor(
    readonly redirectUrl: string,
    private readonly name = 'Handbook e2e agent',
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    this.sentState = randomBytes(16).toString('base64url');
    return this.sentState;
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A PKCE pair as a client makes it (RFC 7636, S256). */
export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Registers a client over plain HTTP (RFC 7591) and returns its id. */
export async function registerClient(baseUrl: string, metadata: Record<string, unknown>) {
  const response = await fetch(`${baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

/**
 * The reader's side without a browser: the consent page for these authorization parameters, then the form submitted
 * with `decision` as the page's own form would. Returns the consent page's status and where the answer redirects.
 */
export async function consentOverHttp(
  baseUrl: string,
  jar: CookieJar,
  parameters: Record<string, string>,
  decision: 'allow' | 'deny' = 'allow',
) {
  const page = await send(jar, new URL(`/oauth/authorize?${new URLSearchParams(parameters)}`, baseUrl));
  const html = await page.text();
  if (page.status !== 200) return { status: page.status, html, location: page.headers.get('location') };
  const answer = await send(jar, new URL('/oauth/authorize', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl },
    body: new URLSearchParams({ ...parameters, decision }),
  });
  return { status: page.status, html, location: answer.headers.get('location') };
}

/** A token request as a client sends it (form-encoded); the status and the JSON body. */
export async function tokenRequest(baseUrl: string, parameters: Record<string, string>) {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(parameters),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}
