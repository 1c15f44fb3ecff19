import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { consentOverHttp, listToolsOverHttp, pkcePair, registerClient, tokenRequest } from './oauth-client';
import { type CookieJar, signIn } from './sign-in';

/** What the handbook's OAuth authorization server refuses, each named after the attack or mistake it stops. */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

const redirectUri = 'http://127.0.0.1:9/callback';
let jar: CookieJar;
let clientId: string;

test.beforeAll(async ({ server }) => {
  jar = (await signIn(server.baseUrl, { email: 'oauth-refusals@acme.dev' })).jar;
  const { response, body } = await registerClient(server.baseUrl, {
    client_name: '<img src=x onerror=alert(1)>',
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'client_secret_basic',
  });
  expect(response.status).toBe(201);
  expect(body).toMatchObject({ token_endpoint_auth_method: 'none', redirect_uris: [redirectUri] });
  expect(body.client_secret).toBeUndefined();
  clientId = String(body.client_id);
});

function authorization(baseUrl: string, challenge: string, extra: Record<string, string> = {}) {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: `${baseUrl}/mcp`,
    state: 'state-42',
    ...extra,
  };
}

/** A code for this test's client, consented to over HTTP. */
async function codeFor(baseUrl: string) {
  const pkce = pkcePair();
  const consent = await consentOverHttp(baseUrl, jar, authorization(baseUrl, pkce.challenge));
  return { pkce, code: new URL(consent.location ?? '').searchParams.get('code') ?? '' };
}

const exchange = (baseUrl: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
  tokenRequest(baseUrl, {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    ...extra,
  });

const mcpStatus = async (baseUrl: string, token: string) => (await listToolsOverHttp(baseUrl, token)).status;

describe('discovery', () => {
  test('publishesTheAuthorizationServerInTheResourceMetadataAndItsOwnMetadata', async ({ server }) => {
    const resource = await (await fetch(`${server.baseUrl}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(resource).toMatchObject({ resource: `${server.baseUrl}/mcp`, authorization_servers: [server.baseUrl] });
    const metadata = await (await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      issuer: server.baseUrl,
      authorization_endpoint: `${server.baseUrl}/oauth/authorize`,
      token_endpoint: `${server.baseUrl}/oauth/token`,
      registration_endpoint: `${server.baseUrl}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
  });
});

describe('the consent page', () => {
  test('showsAClientNameAsTextNeverAsMarkup', async ({ server }) => {
    const consent = await consentOverHttp(server.baseUrl, jar, authorization(server.baseUrl, pkcePair().challenge));
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(consent.html).not.toContain('<img src=x');
  });

  test('refusesAnAnswerPostedFromAnotherSite', async ({ server }) => {
    const parameters = { ...authorization(server.baseUrl, pkcePair().challenge), decision: 'allow' };
    const response = await fetch(`${server.baseUrl}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        cookie: `acme_session=${jar.get('acme_session')}`,
      },
      body: new URLSearchParams(parameters),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('location')).toBeNull();
  });

  test('neverSendsAVisitorToTheClientWithAnError', async ({ server }) => {
    // A link anyone could make, to a client anyone may register: signed in or not, no redirect leaves the handbook.
    const query = new URLSearchParams(authorization(server.baseUrl, pkcePair().challenge, { response_type: 'token' }));
    for (const headers of [{}, { cookie: `acme_session=${jar.get('acme_session')}` }] as Array<
      Record<string, string>
    >) {
      const response = await fetch(`${server.baseUrl}/oauth/authorize?${query}`, { redirect: 'manual', headers });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('unsupported_response_type');
    }
    const valid = new URLSearchParams(authorization(server.baseUrl, pkcePair().challenge));
    const signedOut = await fetch(`${server.baseUrl}/oauth/authorize?${valid}`, { redirect: 'manual' });
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get('location')).toBeNull();
  });

  test('neverRedirectsToARedirectUriTheClientDidNotRegister', async ({ server }) => {
    for (const foreign of ['http://127.0.0.1:9/elsewhere', 'https://evil.example/callback', `${redirectUri}/`]) {
      const consent = await consentOverHttp(
        server.baseUrl,
        jar,
        authorization(server.baseUrl, pkcePair().challenge, { redirect_uri: foreign }),
      );
      expect(consent.status).toBe(400);
      expect(consent.location).toBeNull();
      expect(consent.html).toContain('data-testid="oauth-problem"');
    }
  });

  test.for([
    ['a token for another resource', { resource: 'https://other.example/mcp' }, 'invalid_target'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no PKCE challenge', { code_challenge: '' }, 'invalid_request'],
    ['an implicit grant', { response_type: 'token' }, 'unsupported_response_type'],
  ])('refusesAuthorizingWith %s on a page of its own, never redirecting', async ([, extra, error], { server }) => {
    const consent = await consentOverHttp(
      server.baseUrl,
      jar,
      authorization(server.baseUrl, pkcePair().challenge, extra as Record<string, string>),
    );
    expect(consent.status).toBe(400);
    expect(consent.location).toBeNull();
    expect(consent.html).toContain('data-testid="oauth-problem"');
    expect(consent.html).toContain(String(error));
  });
});

describe('the token endpoint', () => {
  test('refusesAWrongPkceVerifier', async ({ server }) => {
    const { code } = await codeFor(server.baseUrl);
    const refused = await exchange(server.baseUrl, code, pkcePair().verifier);
    expect(refused).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.any(String) } });
  });

  test('refusesAReusedCodeAndRevokesWhatItGave', async ({ server }) => {
    const { code, pkce } = await codeFor(server.baseUrl);
    const first = await exchange(server.baseUrl, code, pkce.verifier);
    expect(first.status).toBe(200);
    expect(await mcpStatus(server.baseUrl, first.body.access_token ?? '')).toBe(200);
    const second = await exchange(server.baseUrl, code, pkce.verifier);
    expect(second.body.error).toBe('invalid_grant');
    expect(await mcpStatus(server.baseUrl, first.body.access_token ?? '')).toBe(401);
  });

  test('refusesACodeSentWithAnotherRedirectUri', async ({ server }) => {
    const { code, pkce } = await codeFor(server.baseUrl);
    const refused = await exchange(server.baseUrl, code, pkce.verifier, { redirect_uri: 'http://127.0.0.1:9/other' });
    expect(refused.body.error).toBe('invalid_grant');
  });

  test('refusesATokenForAnotherResource', async ({ server }) => {
    const { code, pkce } = await codeFor(server.baseUrl);
    const refused = await exchange(server.baseUrl, code, pkce.verifier, { resource: 'https://other.example/mcp' });
    expect(refused).toEqual({ status: 400, body: { error: 'invalid_target', error_description: expect.any(String) } });
  });

  test('refusesAnUnknownClientAndGrantType', async ({ server }) => {
    const { code, pkce } = await codeFor(server.baseUrl);
    const unknown = await exchange(server.baseUrl, code, pkce.verifier, { client_id: 'no-such-client' });
    expect(unknown).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const implicit = await tokenRequest(server.baseUrl, { grant_type: 'password', client_id: clientId });
    expect(implicit).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });

  test('neverAcceptsAnAccessTokenInTheQueryString', async ({ server }) => {
    const { code, pkce } = await codeFor(server.baseUrl);
    const { body } = await exchange(server.baseUrl, code, pkce.verifier);
    const response = await fetch(`${server.baseUrl}/api/search?q=ttl&access_token=${body.access_token}`);
    expect(response.status).toBe(401);
    // In the header, at a page's address, it reads the page as Markdown, as its consent allows; never the HTML page.
    const page = await fetch(`${server.baseUrl}/firestore-ttl`, {
      headers: { authorization: `Bearer ${body.access_token}`, accept: 'text/html' },
    });
    expect(page.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await page.text()).not.toContain('<html');
  });
});

describe('registration', () => {
  test.for([
    ['plain http to another host', ['http://evil.example/callback'], 'invalid_redirect_uri'],
    ['a file: URI', ['file:///tmp/callback'], 'invalid_redirect_uri'],
    ['a javascript: URI among good ones', ['http://127.0.0.1:33418/cb', 'javascript:alert(1)'], 'invalid_redirect_uri'],
    ['an OS handler the browser would hand to Windows', ['ms-msdt:/id'], 'invalid_redirect_uri'],
    ['a NUL inside a redirect URI', ['https://agent.example/x\u0000y'], 'invalid_redirect_uri'],
    ['no redirect URI', [], 'invalid_client_metadata'],
    [
      'six redirect URIs',
      Array.from({ length: 6 }, (_, i) => `http://127.0.0.1:${i + 1}/cb`),
      'invalid_client_metadata',
    ],
  ])('refusesRegistering %s', async ([, uris, error], { server }) => {
    const { response, body } = await registerClient(server.baseUrl, { client_name: 'x', redirect_uris: uris });
    expect(response.status).toBe(400);
    expect(body.error).toBe(error);
  });

  test('acceptsANativeAgentsPrivateUseCallbackAndSendsTheCodeThere', async ({ server }) => {
    // Cursor registers its own scheme beside loopback ones (RFC 8252 7.1); the code goes back to that scheme.
    const callback = 'cursor://anysphere.cursor-mcp/oauth/callback';
    const { response, body } = await registerClient(server.baseUrl, {
      client_name: 'Cursor',
      redirect_uris: [callback, 'http://127.0.0.1:33418/callback'],
    });
    expect(response.status).toBe(201);
    const pkce = pkcePair();
    const consent = await consentOverHttp(server.baseUrl, jar, {
      ...authorization(server.baseUrl, pkce.challenge),
      client_id: String(body.client_id),
      redirect_uri: callback,
    });
    expect(consent.html).toContain('<code>anysphere.cursor-mcp</code> (cursor)');
    const location = new URL(consent.location ?? '');
    expect(`${location.protocol}//${location.host}${location.pathname}`).toBe(callback);
    expect(location.searchParams.get('state')).toBe('state-42');
    expect(location.searchParams.get('code')).toMatch(/\S{20,}/);
  });

  test('refusesAnOversizedRegistrationAndAFloodOfThem', async ({ server }) => {
    const big = await registerClient(server.baseUrl, {
      redirect_uris: [redirectUri],
      software_statement: 'a'.repeat(9000),
    });
    expect(big.response.status).toBe(413);
    expect(big.body.error).toBe('invalid_client_metadata');
    let limited: Awaited<ReturnType<typeof registerClient>> | undefined;
    for (let attempt = 0; attempt < 11 && !limited; attempt++) {
      const registered = await registerClient(server.baseUrl, { redirect_uris: [redirectUri] });
      if (registered.response.status === 429) limited = registered;
      else expect(registered.response.status).toBe(201);
    }
    expect(limited?.body.error).toBe('temporarily_unavailable');
    expect(Number(limited?.response.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the endpoints anyone may call', () => {
  // Last in this file: it spends this address's allowance for the minute.
  test('refusesAFloodOfTokenRequestsFromOneAddressWithRetryAfter', async ({ server }) => {
    let limited: Awaited<ReturnType<typeof fetch>> | undefined;
    for (let attempt = 0; attempt < 130 && !limited; attempt++) {
      const response = await fetch(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code: `guess-${attempt}` }),
      });
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(400);
    }
    if (!limited) throw new Error('130 token requests in a row were never limited');
    expect(((await limited.json()) as { error: string }).error).toBe('temporarily_unavailable');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
