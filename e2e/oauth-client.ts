import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { type CookieJar, send, signIn } from './sign-in';

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

/** An agent connected over HTTP for the reader whose sign-in `jar` holds (consent, code exchange): its tokens. */
export async function connectAgentOverHttp(baseUrl: string, jar: CookieJar, clientName = 'Script agent') {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const { body } = await registerClient(baseUrl, { client_name: clientName, redirect_uris: [redirectUri] });
  const clientId = String(body.client_id);
  const pkce = pkcePair();
  const consent = await consentOverHttp(baseUrl, jar, {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    resource: `${baseUrl}/mcp`,
    state: 'xyz',
  });
  const code = new URL(consent.location ?? '').searchParams.get('code') ?? '';
  const tokens = await tokenRequest(baseUrl, {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    redirect_uri: redirectUri,
    code_verifier: pkce.verifier,
    resource: `${baseUrl}/mcp`,
  });
  if (tokens.status !== 200) throw new Error(`The code exchange answered ${tokens.status}.`);
  return { clientId, code, access: tokens.body.access_token ?? '', refresh: tokens.body.refresh_token ?? '' };
}

/** Access granted over HTTP (sign-in, consent, code exchange), for the tests that are not about the browser. */
export async function grantOverHttp(baseUrl: string, email: string) {
  const { jar } = await signIn(baseUrl, { email });
  const granted = await connectAgentOverHttp(baseUrl, jar);
  return { ...granted, cookie: `acme_session=${jar.get('acme_session')}` };
}

/** `tools/list` sent to `/mcp` with a bearer token, as an MCP client's first call after connecting. */
export const listToolsOverHttp = (baseUrl: string, accessToken: string) =>
  fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${accessToken}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  });
