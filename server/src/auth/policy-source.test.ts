import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createPolicySource } from './policy-source.js';

const fail = (message: string) => {
  throw new Error(message);
};

/** The policy a server started with this environment (and no policy file) enforces. */
const policyOf = (environment: NodeJS.ProcessEnv) =>
  createPolicySource(loadConfig(environment).accessSettings, undefined, fail).current();

describe('the policy of the ACCESS_* settings', () => {
  it('allows the four default domains, acme.dev and acme.io first, with Workspace accounts required', () => {
    expect(policyOf({})).toEqual({
      domains: ['acme.dev', 'acme.io', 'acme-labs.dev', 'acme.studio'],
      addresses: ['alex.partner@example.com', 'sam.contractor@example.org', 'qa.vendor@example.net'],
      allowSubdomains: false,
      requireHostedDomain: true,
      maintainers: [],
      blocked: [],
    });
  });

  it('reads subdomains and the Workspace claim from their flags', () => {
    expect(policyOf({ ACCESS_ALLOW_SUBDOMAINS: 'true', ACCESS_REQUIRE_HOSTED_DOMAIN: 'false' })).toMatchObject({
      allowSubdomains: true,
      requireHostedDomain: false,
    });
  });

  it.each([
    [
      'reportsDomainThatIsNotADomain',
      { ACCESS_DOMAINS: 'acme.dev, acme.io, *.acme.studio' },
      /Invalid configuration:\n {2}ACCESS_DOMAINS.*"\*\.acme\.studio" is not a domain/,
    ],
    ['reportsLookAlikeDomain', { ACCESS_DOMAINS: 'acme.dev,\u0430cme.io' }, /ACCESS_DOMAINS.*is not a domain/],
    ['reportsSingleDomain', { ACCESS_DOMAINS: 'acme.dev' }, /ACCESS_DOMAINS.*at least two domains/],
    [
      'reportsAddressWithoutAtSign',
      { ACCESS_ADDRESSES: 'alex.partner.example.com' },
      /ACCESS_ADDRESSES.*is not an e-mail address/,
    ],
  ])('%s', (_name, environment, message) => {
    expect(() => policyOf(environment)).toThrow(message);
  });
});

describe('a broken ACCESS_POLICY_FILE', () => {
  it('reportsBrokenPolicyFileOncePerProblemNotEverySecond', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'policy-file-'));
    const file = path.join(directory, 'policy.json');
    writeFileSync(file, JSON.stringify({ domains: ['acme.dev', 'acme.io'] }));
    const reports: string[] = [];
    const source = createPolicySource(loadConfig({}).accessSettings, file, (message) => reports.push(message));
    try {
      writeFileSync(file, '{ "domains": [');
      const start = Date.now() + 1000;
      for (let second = 0; second < 120; second += 1) source.current(start + second * 1000);
      expect(reports).toHaveLength(1);
      expect(source.current(start + 130_000).domains).toEqual(['acme.dev', 'acme.io']);
      writeFileSync(file, '{ "domains": 42 }');
      source.current(start + 132_000);
      expect(reports).toHaveLength(2);
      source.current(start + 132_000 + 5 * 60_000);
      expect(reports).toHaveLength(3);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('MAINTAINERS', () => {
  it('reads the maintainers from the environment, folded like the allowed addresses', () => {
    expect(policyOf({ MAINTAINERS: 'Docs.Lead@Acme.dev, kate@acme.io' }).maintainers).toEqual([
      'docs.lead@acme.dev',
      'kate@acme.io',
    ]);
  });

  it('reportsMaintainerThatIsNotAnAddress', () => {
    expect(() => policyOf({ MAINTAINERS: 'docs-team' })).toThrow(/MAINTAINERS.*"docs-team" is not an e-mail address/);
  });

  it("takes a policy file's maintainers over the environment's, and keeps the environment's when it has none", () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'policy-file-'));
    const file = path.join(directory, 'policy.json');
    try {
      writeFileSync(file, JSON.stringify({ domains: ['acme.dev', 'acme.io'], maintainers: ['file.lead@acme.dev'] }));
      const settings = loadConfig({ MAINTAINERS: 'env.lead@acme.dev' }).accessSettings;
      expect(createPolicySource(settings, file, fail).current().maintainers).toEqual(['file.lead@acme.dev']);
      writeFileSync(file, JSON.stringify({ domains: ['acme.dev', 'acme.io'] }));
      expect(createPolicySource(settings, file, fail).current().maintainers).toEqual(['env.lead@acme.dev']);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('ACCESS_BLOCKED_ADDRESSES', () => {
  it('reads the blocked addresses from the environment, folded, and refuses one that is not an address', () => {
    expect(policyOf({ ACCESS_BLOCKED_ADDRESSES: 'Left.Company@Acme.dev kate@acme.io' }).blocked).toEqual([
      'left.company@acme.dev',
      'kate@acme.io',
    ]);
    expect(() => policyOf({ ACCESS_BLOCKED_ADDRESSES: 'acme.dev' })).toThrow(/ACCESS_BLOCKED_ADDRESSES.*"acme.dev"/);
  });

  it("takes a policy file's blocked list over the environment's, and keeps the environment's when it has none", () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'policy-file-'));
    const file = path.join(directory, 'policy.json');
    try {
      writeFileSync(file, JSON.stringify({ domains: ['acme.dev', 'acme.io'], blocked: ['file.leaver@acme.dev'] }));
      const settings = loadConfig({ ACCESS_BLOCKED_ADDRESSES: 'env.leaver@acme.dev' }).accessSettings;
      expect(createPolicySource(settings, file, fail).current().blocked).toEqual(['file.leaver@acme.dev']);
      writeFileSync(file, JSON.stringify({ domains: ['acme.dev', 'acme.io'] }));
      expect(createPolicySource(settings, file, fail).current().blocked).toEqual(['env.leaver@acme.dev']);
      writeFileSync(file, JSON.stringify({ domains: ['acme.dev', 'acme.io'], blocked: null }));
      expect(createPolicySource(settings, file, fail).current().blocked).toEqual(['env.leaver@acme.dev']);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
