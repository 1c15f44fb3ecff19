import { describe, expect } from 'vitest';
import { maxUnauthorizedClients } from '../server/src/auth/oauth/client-registration.js';
import { createAuthorizationCode } from '../server/src/store/oauth.js';
import { createPersonalToken } from '../server/src/store/personal-tokens.js';
import { oauthClients, oauthCodes, personalTokens } from '../server/src/store/schema.js';
import { adaIdentity } from '../server/test-support/reader-rows.js';
import { test } from './fixtures';
import type { TestServer } from './harness';
import { pkcePair, tokenRequest } from './oauth-client';
import { type CookieJar, send, signIn } from './sign-in';

/**
 * Anyone may register an OAuth client, ten a minute from each address (IPv6 by /64), so one network's many addresses
 * could add rows without end: past a ceiling of clients awaiting a reader's consent, the oldest of them makes room. A
 * refusal instead let a stranger with a hundred addresses shut registration for every reader (attack review).
 */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

const redirectUri = 'http://127.0.0.1:9/callback';
const uris = { redirectUris: [redirectUri] };
const registration = { client_name: 'Flood', redirect_uris: [redirectUri] };
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** Each registration from an address of its own, as a flood from many networks arrives: no address limit is met. */
let addressesUsed = 0;
async function register(server: TestServer) {
  addressesUsed += 1;
  const response = await server.app.inject({
    method: 'POST',
    url: '/oauth/register',
    remoteAddress: `10.${Math.floor(addressesUsed / 250)}.${addressesUsed % 250}.1`,
    payload: registration,
  });
  return { status: response.statusCode, clientId: String(response.json().client_id) };
}

/** `count` clients nobody has consented to, registered now (by the database's clock) straight into the store. */
async function flood(server: TestServer, count: number) {
  const rows = Array.from({ length: count }, (_, index) => ({ id: `flood-${index}`, name: 'Flood', ...uris }));
  if (rows.length > 0) await server.store.db.insert(oauthClients).values(rows);
}

/** The clients that hold neither a grant nor a code: those that await a reader's consent. */
async function awaitingConsent(server: TestServer) {
  const { db } = server.store;
  const consented = new Set([
    ...(await db.select({ id: personalTokens.clientId }).from(personalTokens)).map((row) => row.id),
    ...(await db.select({ id: oauthCodes.clientId }).from(oauthCodes)).map((row) => row.id),
  ]);
  const clients = await db.select({ id: oauthClients.id }).from(oauthClients);
  return clients.map((client) => client.id).filter((id) => !consented.has(id));
}

const exists = async (server: TestServer, id: string) =>
  (await server.store.db.select().from(oauthClients)).some((client) => client.id === id);

test.beforeEach(async ({ server }) => {
  await server.store.db.delete(oauthClients);
});

test('aStrangersFloodAtTheCeilingEvictsTheOldestWaitingClientInsteadOfRefusingReaders', async ({ server }) => {
  const { db } = server.store;
  // Older than everything else: a client a reader authorized, and one whose code a reader's consent just gave.
  await db.insert(oauthClients).values([
    { id: 'authorized', name: 'Agent', ...uris, createdAt: minutesAgo(600) },
    { id: 'consented', name: 'Agent', ...uris, createdAt: minutesAgo(600) },
    { id: 'oldest-waiting', name: 'Agent', ...uris, createdAt: minutesAgo(30) },
  ]);
  await createPersonalToken(db, {
    ...adaIdentity,
    id: 'grant-authorized',
    name: 'Agent (connected with OAuth)',
    secretHash: 'x',
    expiresAt: new Date(Date.now() + 86_400_000),
    clientId: 'authorized',
  });
  await createAuthorizationCode(db, {
    ...adaIdentity,
    codeHash: 'code-consented',
    clientId: 'consented',
    redirectUri,
    codeChallenge: 'c'.repeat(43),
    resource: `${server.baseUrl}/mcp`,
    expiresAt: new Date(Date.now() + 120_000),
  });
  await flood(server, maxUnauthorizedClients - 1);
  expect(await awaitingConsent(server)).toHaveLength(maxUnauthorizedClients);

  const reader = await register(server);
  expect(reader.status).toBe(201);
  expect(await exists(server, reader.clientId)).toBe(true);
  expect(await exists(server, 'oldest-waiting')).toBe(false);
  for (let more = 0; more < 5; more++) expect((await register(server)).status).toBe(201);
  expect(await awaitingConsent(server)).toHaveLength(maxUnauthorizedClients);
  expect(await exists(server, 'authorized')).toBe(true);
  expect(await exists(server, 'consented')).toBe(true);
});

test('registrationsAtOnceNeverLeaveMoreClientsWaitingThanTheCeiling', async ({ server }) => {
  await flood(server, maxUnauthorizedClients - 3);
  const answers = await Promise.all(Array.from({ length: 20 }, () => register(server)));
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
  expect(await awaitingConsent(server)).toHaveLength(maxUnauthorizedClients);
});

describe('an evicted client', () => {
  let jar: CookieJar;
  test.beforeAll(async ({ server }) => {
    jar = (await signIn(server.baseUrl, { email: 'evicted-client@acme.dev' })).jar;
  });

  const authorizeUrl = (server: TestServer, clientId: string) =>
    new URL(
      `/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        state: 'state-1',
      })}`,
      server.baseUrl,
    );

  test('isAnUnknownClientAtTheConsentPageAndTheTokenEndpointNotAServerError', async ({ server }) => {
    const evicted = await register(server);
    await flood(server, maxUnauthorizedClients - 1);
    expect((await register(server)).status).toBe(201);

    const page = await send(jar, authorizeUrl(server, evicted.clientId));
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('unknown client_id');
    const token = await tokenRequest(server.baseUrl, {
      grant_type: 'authorization_code',
      code: 'a-code',
      client_id: evicted.clientId,
      redirect_uri: redirectUri,
      code_verifier: pkcePair().verifier,
    });
    expect(token).toEqual({ status: 401, body: { error: 'invalid_client', error_description: expect.any(String) } });
  });

  test('answersAConsentGivenAfterItsClientWasEvictedWithTheUnknownClientPage', async ({ server }) => {
    const evicted = await register(server);
    const url = authorizeUrl(server, evicted.clientId);
    expect((await send(jar, url)).status).toBe(200);
    // While the reader reads the consent page, a flood pushes the client out.
    await flood(server, maxUnauthorizedClients - 1);
    expect((await register(server)).status).toBe(201);

    const answer = await send(jar, new URL('/oauth/authorize', server.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.baseUrl },
      body: new URLSearchParams({ ...Object.fromEntries(url.searchParams), decision: 'allow' }),
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(await answer.text()).toContain('unknown client_id');
  });
});
