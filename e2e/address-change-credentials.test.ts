import { mkdtempSync, rmSync } from 'node:fs';
import { utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase, type TestDatabase } from '../server/test-support/test-databases.js';
import { startServer, startServerOnItsOwnStore } from './harness';
import { connectAgentOverHttp, listToolsOverHttp, tokenRequest } from './oauth-client';
import { readerCall } from './reader-call';
import { signIn } from './sign-in';
import { tokensApi, withToken } from './tokens-api';

/**
 * Every credential of an account is judged by the address the identity provider gave at its latest sign-in, and by
 * the address it was made with: an address changed at the provider and then blocked locks out the sessions, tokens and
 * agents made under the old one (F4).
 */
type Running = { baseUrl: string; close(): Promise<void> };

const backends: Array<{ name: string; start(environment: Record<string, string>): Promise<Running> }> = [
  { name: 'PGlite', start: (environment) => startServer(environment) },
  {
    name: 'PostgreSQL',
    async start(environment) {
      const database: TestDatabase = await createPostgresTestDatabase();
      const server = await startServerOnItsOwnStore({
        ...environment,
        DATABASE_URL: database.options.databaseUrl ?? '',
      });
      return {
        baseUrl: server.baseUrl,
        async close() {
          await server.close();
          await database.drop();
        },
      };
    },
  },
];

const skipPostgres = process.env.SKIP_POSTGRES_TESTS === '1';

const mcpStatus = async (baseUrl: string, token: string) => (await listToolsOverHttp(baseUrl, token)).status;

async function signedIn(baseUrl: string, email: string, subject: string) {
  const { jar, response } = await signIn(baseUrl, { email, subject });
  expect(response.status).toBe(303);
  return { jar, cookie: `acme_session=${jar.get('acme_session')}` };
}

/** `/api/me` for a session: its status and the address it shows. */
async function me(baseUrl: string, cookie: string) {
  const response = await fetch(`${baseUrl}/api/me`, { headers: { cookie } });
  return { status: response.status, ...((await response.json()) as { state: string; email?: string }) };
}

for (const backend of backends) {
  describe.skipIf(backend.name === 'PostgreSQL' && skipPostgres)(
    `an address changed at the provider on ${backend.name}`,
    () => {
      const directory = mkdtempSync(path.join(tmpdir(), 'handbook-address-change-'));
      const policyFile = path.join(directory, 'policy.json');
      let server: Running;
      let policyChanges = 0;

      /** Writes the policy file and waits until the server has read it (it looks at most once a second). */
      async function blockAddresses(blocked: string[]) {
        await writeFile(policyFile, JSON.stringify({ domains: ['acme.dev', 'acme.io'], addresses: [], blocked }));
        policyChanges += 1;
        const mtime = new Date(Date.now() + policyChanges * 10_000);
        await utimes(policyFile, mtime, mtime);
        await new Promise((resolve) => setTimeout(resolve, 1_100));
      }

      beforeAll(async () => {
        await writeFile(policyFile, JSON.stringify({ domains: ['acme.dev', 'acme.io'], addresses: [], blocked: [] }));
        server = await backend.start({ LOG_LEVEL: 'silent', ACCESS_POLICY_FILE: policyFile });
      });
      afterAll(async () => {
        await server?.close();
        rmSync(directory, { recursive: true, force: true });
      });

      it('blockingTheNewAddressLocksOutTheSessionsTokensAndAgentsMadeUnderTheOldOne', async () => {
        const { baseUrl } = server;
        const before = await signedIn(baseUrl, 'old.name@acme.dev', 'S-rename-1');
        const token = await tokensApi(baseUrl, before.cookie).create('laptop script');
        const agent = await connectAgentOverHttp(baseUrl, before.jar, 'Renamed agent');
        const thread = await readerCall(baseUrl, before.cookie)('POST', '/api/threads', { title: 'Before the rename' });
        expect(thread.status).toBe(201);

        const after = await signedIn(baseUrl, 'new.name@acme.dev', 'S-rename-1');
        // Still one person: the chats follow the account.
        const threads = await fetch(`${baseUrl}/api/threads`, withToken(token.token));
        expect(JSON.stringify(await threads.json())).toContain('Before the rename');

        await blockAddresses(['new.name@acme.dev']);

        expect(await me(baseUrl, after.cookie)).toMatchObject({ status: 403, state: 'not-allowed' });
        // The old session shows, and is judged by, the address of the latest sign-in.
        expect(await me(baseUrl, before.cookie)).toMatchObject({
          status: 403,
          state: 'not-allowed',
          email: 'new.name@acme.dev',
        });
        const page = await fetch(`${baseUrl}/faqs/`, { headers: { cookie: before.cookie, accept: 'text/html' } });
        expect(page.status).toBe(403);
        expect((await fetch(`${baseUrl}/faqs.md`, withToken(token.token))).status).toBe(403);
        expect(await mcpStatus(baseUrl, agent.access)).toBe(403);
        const refresh = await tokenRequest(baseUrl, {
          grant_type: 'refresh_token',
          refresh_token: agent.refresh,
          client_id: agent.clientId,
        });
        expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      });

      it('blockingTheOldAddressLocksOutWhatWasMadeUnderItButNotTheNewSignIn', async () => {
        const { baseUrl } = server;
        const before = await signedIn(baseUrl, 'left.name@acme.dev', 'S-rename-2');
        const token = await tokensApi(baseUrl, before.cookie).create('old script');
        const agent = await connectAgentOverHttp(baseUrl, before.jar, 'Renamed agent');
        const after = await signedIn(baseUrl, 'right.name@acme.dev', 'S-rename-2');

        await blockAddresses(['left.name@acme.dev']);

        expect(await me(baseUrl, before.cookie)).toMatchObject({ status: 403 });
        expect((await fetch(`${baseUrl}/faqs.md`, withToken(token.token))).status).toBe(403);
        expect(await mcpStatus(baseUrl, agent.access)).toBe(403);
        expect(await me(baseUrl, after.cookie)).toMatchObject({ status: 200, email: 'right.name@acme.dev' });
      });

      it('aSignInWithAnAddressThePolicyRefusesRefusesTheAccountsEarlierCredentials', async () => {
        const { baseUrl } = server;
        const before = await signedIn(baseUrl, 'moving@acme.dev', 'S-rename-3');
        const token = await tokensApi(baseUrl, before.cookie).create('moving script');
        expect((await fetch(`${baseUrl}/faqs.md`, withToken(token.token))).status).toBe(200);

        const refused = await signIn(baseUrl, { email: 'moving@elsewhere.example', subject: 'S-rename-3' });
        expect(refused.response.status).toBe(303);

        expect((await fetch(`${baseUrl}/faqs.md`, withToken(token.token))).status).toBe(403);
        expect(await me(baseUrl, before.cookie)).toMatchObject({ status: 403 });
      });
    },
  );
}
