import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { test } from './fixtures';
import { fetchPath, html, signedInSession, withSession } from './gate-security';

const allDomains = ['acme.dev', 'acme.io', 'acme-labs.dev', 'acme.studio'];
const directory = mkdtempSync(path.join(tmpdir(), 'handbook-policy-'));
const policyFile = path.join(directory, 'policy.json');
writeFileSync(policyFile, JSON.stringify({ domains: allDomains, addresses: [] }));
test.override({ serverEnvironment: { LOG_LEVEL: 'silent', ACCESS_POLICY_FILE: policyFile } });
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('access policy file is re-checked on every request', () => {
  let labsSession: string;
  let devSession: string;
  /** The file is stat'ed at most once a second; a distinct mtime makes the change visible whatever the clock does. */
  let version = 0;

  async function writePolicy(contents: string) {
    await writeFile(policyFile, contents);
    version += 1;
    const mtime = new Date(Date.now() + version * 10_000);
    await utimes(policyFile, mtime, mtime);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
  }

  const statusOf = async (baseUrl: string, sessionId: string) =>
    (await fetchPath(baseUrl, '/faqs/', withSession(sessionId, html))).status;

  test.beforeAll(async ({ server }) => {
    labsSession = await signedInSession(server.baseUrl, 'reader@acme-labs.dev');
    devSession = await signedInSession(server.baseUrl, 'reader@acme.dev');
  });

  test('removingDomainLocksOutItsExistingSessions', async ({ server }) => {
    expect(await statusOf(server.baseUrl, labsSession)).toBe(200);
    await writePolicy(JSON.stringify({ domains: allDomains.filter((domain) => domain !== 'acme-labs.dev') }));
    const response = await fetchPath(server.baseUrl, '/faqs/', withSession(labsSession, html));
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('signed in as <strong>reader@acme-labs.dev</strong>');
    expect(await statusOf(server.baseUrl, devSession)).toBe(200);
  });

  test('brokenPolicyFileKeepsTheLastGoodPolicy', async ({ server }) => {
    await writePolicy('{ "domains": [');
    expect(await statusOf(server.baseUrl, labsSession)).toBe(403);
    expect(await statusOf(server.baseUrl, devSession)).toBe(200);
  });

  test('invalidPolicyFileKeepsTheLastGoodPolicy', async ({ server }) => {
    await writePolicy(JSON.stringify({ domains: ['acme-labs.dev'] }));
    expect(await statusOf(server.baseUrl, labsSession)).toBe(403);
    expect(await statusOf(server.baseUrl, devSession)).toBe(200);
  });
});
