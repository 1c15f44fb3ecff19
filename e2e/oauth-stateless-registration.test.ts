import { describe, expect } from 'vitest';
import { oauthClientIds } from '../server/src/auth/oauth/client-id.js';
import { oauthClients } from '../server/src/store/schema.js';
import { test } from './fixtures';
import { startServer, type TestServer } from './harness';
import { consentOverHttp, pkcePair, registerClient, tokenRequest } from './oauth-client';
import { type CookieJar, signIn } from './sign-in';

/**
 * Anyone may register an OAuth client, ten a minute from each address, so a stranger with many addresses can register
 * without end. Registering stores nothing (the client_id carries the registration, signed with a key derived from
 * SESSION_SECRET): a flood can no longer push out the client of an agent whose reader is about to consent, as the
 * ceiling of clients awaiting consent it replaces let one do (attack review).
 */
const sessionSecret = 'one-session-secret-shared-by-every-instance';
test.override({ serverEnvironment: { LOG_LEVEL: 'silent', SESSION_SECRET: sessionSecret } });

const redirectUri = 'http://127.0.0.1:9/callback';
const registration = { client_name: 'Flood', redirect_uris: [redirectUri] };
const clientLabel = 'oauth client id';

/** Each registration from an address of its own, as a flood from many networks arrives: no address limit is met. */
let addressesUsed = 0;
async function floodRegister(server: TestServer) {
  addressesUsed += 1;
  const response = await server.app.inject({
    method: 'POST',
    url: '/oauth/register',
    remoteAddress: `10.${Math.floor(addressesUsed / 250)}.${addressesUsed % 250}.1`,
    payload: registration,
  });
  return response.statusCode;
}

async function registered(baseUrl: string) {
  const { response, body } = await registerClient(baseUrl, { client_name: 'Agent', redirect_uris: [redirectUri] });
  expect(response.status).toBe(201);
  return String(body.client_id);
}

const storedClients = async (server: TestServer) => server.store.db.select().from(oauthClients);

/** Consent on `consentUrl` by the reader of `jar`, then the code exchanged at `tokenUrl`: the token response. */
async function connect(jar: CookieJar, clientId: string, consentUrl: string, tokenUrl = consentUrl) {
  const pkce = pkcePair();
  const consent = await consentOverHttp(consentUrl, jar, {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: 'state-1',
  });
  expect(consent.status).toBe(200);
  const code = new URL(consent.location ?? '').searchParams.get('code') ?? '';
  return tokenRequest(tokenUrl, {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    redirect_uri: redirectUri,
    code_verifier: pkce.verifier,
  });
}

/** The consent page's status and text, and the token endpoint's answer, for a client_id. */
async function answersFor(server: TestServer, jar: CookieJar, clientId: string) {
  const pkce = pkcePair();
  const consent = await consentOverHttp(server.baseUrl, jar, {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
  });
  const token = await tokenRequest(server.baseUrl, {
    grant_type: 'authorization_code',
    code: 'a-code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_verifier: pkce.verifier,
  });
  return { consent, token };
}

let jar: CookieJar;
test.beforeAll(async ({ server }) => {
  jar = (await signIn(server.baseUrl, { email: 'stateless-registration@acme.dev' })).jar;
});
test.beforeEach(async ({ server }) => {
  await server.store.db.delete(oauthClients);
});

test('aFloodOfRegistrationsStoresNothingAndCannotPushOutAnAgentAwaitingConsent', async ({ server }) => {
  const waiting = await registered(server.baseUrl);
  for (let flooded = 0; flooded < 1010; flooded++) expect(await floodRegister(server)).toBe(201);
  expect(await storedClients(server)).toEqual([]);

  const tokens = await connect(jar, waiting, server.baseUrl);
  expect(tokens).toMatchObject({ status: 200, body: { access_token: expect.any(String) } });
  // The reader's consent stored the client, and it alone.
  expect(await storedClients(server)).toHaveLength(1);
});

describe('a client_id we did not issue, or one past its day', () => {
  const refusedAsUnknown = async (server: TestServer, clientId: string) => {
    const { consent, token } = await answersFor(server, jar, clientId);
    expect(consent.status).toBe(400);
    expect(consent.html).toContain('unknown client_id');
    expect(token).toEqual({ status: 401, body: { error: 'invalid_client', error_description: expect.any(String) } });
  };

  test('isAnUnknownClientWhenItsRegistrationWasTamperedWith', async ({ server }) => {
    const [payload, tag] = (await registered(server.baseUrl)).split('.');
    const carried = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    const widened = { ...carried, redirectUris: [...carried.redirectUris, 'https://attacker.example/cb'] };
    await refusedAsUnknown(server, `${Buffer.from(JSON.stringify(widened)).toString('base64url')}.${tag}`);
    await refusedAsUnknown(server, `${payload}.${'A'.repeat(43)}`);
    await refusedAsUnknown(server, 'made-up.not-json');
    await refusedAsUnknown(server, `${'x'.repeat(13_000)}.y`);
  });

  test('isAnUnknownClientADayAfterRegistrationUnlessAReaderConsented', async ({ server }) => {
    const clientIds = oauthClientIds(server.app.signingKey(clientLabel));
    const client = { id: 'registered-yesterday', name: 'Agent', redirectUris: [redirectUri] };
    const stale = clientIds.issue(client, new Date(Date.now() - 25 * 3_600_000));
    await refusedAsUnknown(server, stale);
    // A client a reader consented to is stored, and its client_id keeps working for its grant's refreshes.
    await server.store.db.insert(oauthClients).values(client);
    expect((await answersFor(server, jar, stale)).consent.status).toBe(200);
  });
});

describe('instances sharing SESSION_SECRET', () => {
  test('acceptEachOthersClientIdsAndAnInstanceWithAnotherSecretDoesNot', async ({ server }) => {
    const environment = { LOG_LEVEL: 'silent', PUBLIC_URL: server.baseUrl };
    const other = await startServer({ ...environment, SESSION_SECRET: sessionSecret }, { store: server.store });
    const stranger = await startServer({ ...environment, SESSION_SECRET: 'another-secret-of-another-handbook' });
    try {
      const fromOther = await registered(other.baseUrl);
      expect(await connect(jar, fromOther, server.baseUrl, other.baseUrl)).toMatchObject({ status: 200 });
      const fromFirst = await registered(server.baseUrl);
      expect(await connect(jar, fromFirst, server.baseUrl, other.baseUrl)).toMatchObject({ status: 200 });
      const refused = await tokenRequest(stranger.baseUrl, {
        grant_type: 'authorization_code',
        client_id: fromFirst,
        code: 'c',
      });
      expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    } finally {
      await other.close();
      await stranger.close();
    }
  });
});
