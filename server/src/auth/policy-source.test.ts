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
