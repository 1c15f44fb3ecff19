import { expect } from 'vitest';
import { maxUnauthorizedClients } from '../server/src/auth/oauth/client-registration.js';
import { createPersonalToken } from '../server/src/store/personal-tokens.js';
import { oauthClients } from '../server/src/store/schema.js';
import { adaIdentity } from '../server/test-support/reader-rows.js';
import { test } from './fixtures';
import { registerClient } from './oauth-client';

/**
 * Anyone may register an OAuth client, ten a minute from each address (IPv6 by /64), so one network's many addresses
 * could add rows without end: past a ceiling of clients nobody has authorized, registration waits (attack review).
 */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

const registration = { client_name: 'Flood', redirect_uris: ['http://127.0.0.1:9/callback'] };

test('refusesRegistrationsPastTheCeilingOfClientsAwaitingConsentUntilOneIsAuthorized', async ({ server }) => {
  // The flood, as many networks' addresses would have registered it, straight into the store.
  await server.store.db.insert(oauthClients).values(
    Array.from({ length: maxUnauthorizedClients - 1 }, (_, index) => ({
      id: `flood-${index}`,
      name: 'Flood',
      redirectUris: registration.redirect_uris,
    })),
  );
  const last = await registerClient(server.baseUrl, registration);
  expect(last.response.status).toBe(201);

  const refused = await registerClient(server.baseUrl, registration);
  expect(refused.response.status).toBe(503);
  expect(refused.response.headers.get('cache-control')).toBe('no-store');
  const retryAfter = Number(refused.response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(86_400);
  expect(refused.body).toEqual({
    error: 'temporarily_unavailable',
    error_description: expect.stringMatching(
      new RegExp(`^${maxUnauthorizedClients} applications .* waiting for a reader's consent.*try again in`),
    ),
  });

  // A reader authorizes one of them: it waits no more, and a new client may register in its place.
  await createPersonalToken(server.store.db, {
    ...adaIdentity,
    id: 'grant-flood-0',
    name: 'Flood (connected with OAuth)',
    secretHash: 'x',
    expiresAt: new Date(Date.now() + 86_400_000),
    clientId: 'flood-0',
  });
  expect((await registerClient(server.baseUrl, registration)).response.status).toBe(201);
  expect((await registerClient(server.baseUrl, registration)).response.status).toBe(503);
});
