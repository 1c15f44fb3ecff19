import { describe, expect, it } from 'vitest';
import { type AccessDecision, type AccessPolicy, decideAccess, isMaintainer } from './access-policy.js';

const policy: AccessPolicy = {
  domains: ['acme.dev', 'acme.io'],
  addresses: ['alex.partner@example.com', 'kate@example.org'],
  allowSubdomains: false,
  requireHostedDomain: false,
  maintainers: ['docs.lead@acme.dev', 'kate@example.org'],
  blocked: [],
};
const withSubdomains: AccessPolicy = { ...policy, allowSubdomains: true };
const withHostedDomain: AccessPolicy = { ...policy, requireHostedDomain: true };

const byDomain: AccessDecision = { allowed: true, reason: 'domain' };
const byAddress: AccessDecision = { allowed: true, reason: 'address' };
const denied = (reason: Extract<AccessDecision, { allowed: false }>['reason']): AccessDecision => ({
  allowed: false,
  reason,
});

type Case = { name: string; email: string; hostedDomain?: string; expected: AccessDecision };

function expectDecisions(accessPolicy: AccessPolicy, cases: Case[]) {
  it.each(cases)('$name', ({ email, hostedDomain, expected }) => {
    expect(decideAccess(accessPolicy, { email, emailVerified: true, hostedDomain })).toEqual(expected);
  });
}

describe('decideAccess', () => {
  describe('blocked addresses', () => {
    const blocking: AccessPolicy = {
      ...policy,
      blocked: ['left.the.company@acme.dev', 'alex.partner@example.com'],
      maintainers: ['left.the.company@acme.dev'],
    };
    expectDecisions(blocking, [
      { name: 'refusesBlockedAddressAtAllowedDomain', email: 'left.the.company@acme.dev', expected: denied('blocked') },
      { name: 'refusesBlockedAddressInOtherCase', email: 'Left.The.Company@ACME.dev', expected: denied('blocked') },
      {
        name: 'refusesBlockedAddressThatIsAlsoAllowed',
        email: 'alex.partner@example.com',
        expected: denied('blocked'),
      },
      { name: 'allowsNeighbourOfBlockedAddress', email: 'left.the.company2@acme.dev', expected: byDomain },
      { name: 'allowsBlockedLocalPartAtOtherDomain', email: 'left.the.company@acme.io', expected: byDomain },
    ]);
    it('refusesBlockedMaintainerTheInsightsToo', () => {
      expect(isMaintainer(blocking, { email: 'left.the.company@acme.dev', emailVerified: true })).toBe(false);
    });
  });

  describe('grants', () => {
    expectDecisions(policy, [
      { name: 'allowsAddressAtAllowedDomain', email: 'x@acme.dev', expected: byDomain },
      { name: 'allowsSecondAllowedDomain', email: 'x@acme.io', expected: byDomain },
      { name: 'allowsUpperCaseDomain', email: 'X@ACME.DEV', expected: byDomain },
      { name: 'allowsWhitelistedAddress', email: 'alex.partner@example.com', expected: byAddress },
      { name: 'allowsWhitelistedAddressInOtherCase', email: 'Alex.Partner@EXAMPLE.com', expected: byAddress },
    ]);
  });

  describe('domain confusion', () => {
    expectDecisions(policy, [
      {
        name: 'rejectsAllowedDomainAsPrefixOfAttackerDomain',
        email: 'user@acme.dev.evil.com',
        expected: denied('not-on-allow-list'),
      },
      { name: 'rejectsAllowedDomainInLocalPart', email: 'acme.dev@gmail.com', expected: denied('not-on-allow-list') },
      { name: 'rejectsDomainSuffixWithoutAtBoundary', email: 'x@evilacme.dev', expected: denied('not-on-allow-list') },
      { name: 'rejectsSubdomainByDefault', email: 'x@sub.acme.dev', expected: denied('not-on-allow-list') },
      { name: 'rejectsSecondAtSign', email: 'a@b@acme.dev', expected: denied('malformed-email') },
      {
        name: 'rejectsAllowedDomainBeforeSecondAtSign',
        email: 'x@acme.dev@gmail.com',
        expected: denied('malformed-email'),
      },
      { name: 'rejectsMissingAtSign', email: 'acme.dev', expected: denied('malformed-email') },
      { name: 'rejectsEmptyLocalPart', email: '@acme.dev', expected: denied('malformed-email') },
      { name: 'rejectsEmptyDomain', email: 'x@', expected: denied('malformed-email') },
      { name: 'rejectsEmptyEmail', email: '', expected: denied('malformed-email') },
      { name: 'rejectsTrailingDotOnDomain', email: 'x@acme.dev.', expected: denied('malformed-email') },
      { name: 'rejectsEmptyLabelInDomain', email: 'x@acme..dev', expected: denied('malformed-email') },
    ]);
  });

  describe('whitespace and invisible characters are refused, never trimmed', () => {
    expectDecisions(policy, [
      { name: 'rejectsTrailingSpace', email: 'x@acme.dev ', expected: denied('malformed-email') },
      { name: 'rejectsTrailingNewline', email: 'x@acme.dev\n', expected: denied('malformed-email') },
      { name: 'rejectsTrailingCarriageReturnLineFeed', email: 'x@acme.dev\r\n', expected: denied('malformed-email') },
      { name: 'rejectsTrailingTab', email: 'x@acme.dev\t', expected: denied('malformed-email') },
      { name: 'rejectsLeadingSpace', email: ' x@acme.dev', expected: denied('malformed-email') },
      { name: 'rejectsSpaceInLocalPart', email: 'x y@acme.dev', expected: denied('malformed-email') },
      { name: 'rejectsNulInLocalPart', email: 'x\0@acme.dev', expected: denied('malformed-email') },
      { name: 'rejectsNulAfterDomain', email: 'x@acme.dev\0.evil.com', expected: denied('malformed-email') },
      { name: 'rejectsZeroWidthSpaceInDomain', email: 'x@acme\u200b.dev', expected: denied('malformed-email') },
      { name: 'rejectsZeroWidthSpaceInLocalPart', email: 'x\u200b@acme.dev', expected: denied('malformed-email') },
      { name: 'rejectsRightToLeftOverride', email: 'x\u202e@acme.dev', expected: denied('malformed-email') },
      { name: 'rejectsNoBreakSpace', email: 'x\u00a0@acme.dev', expected: denied('malformed-email') },
      {
        name: 'rejectsWhitelistedAddressWithTrailingNewline',
        email: 'alex.partner@example.com\n',
        expected: denied('malformed-email'),
      },
    ]);
  });

  describe('unicode look-alikes', () => {
    expectDecisions(policy, [
      { name: 'rejectsCyrillicAInDomain', email: 'x@\u0430cme.dev', expected: denied('malformed-email') },
      { name: 'rejectsFullwidthDomain', email: 'x@\uff41\uff43\uff4d\uff45.dev', expected: denied('malformed-email') },
      { name: 'rejectsFullwidthFullStopInDomain', email: 'x@acme\uff0edev', expected: denied('malformed-email') },
      { name: 'rejectsIdeographicFullStopInDomain', email: 'x@acme\u3002dev', expected: denied('malformed-email') },
      {
        name: 'rejectsCyrillicEInWhitelistedDomain',
        email: 'alex.partner@exampl\u0435.com',
        expected: denied('malformed-email'),
      },
      {
        name: 'rejectsCyrillicAInWhitelistedLocalPart',
        email: '\u0430lex.partner@example.com',
        expected: denied('malformed-email'),
      },
      {
        name: 'rejectsKelvinSignFoldingToLetterK',
        email: '\u212Aate@example.org',
        expected: denied('malformed-email'),
      },
    ]);
  });

  describe('whitelisted addresses match whole', () => {
    expectDecisions(policy, [
      {
        name: 'rejectsPlusAddressingOnWhitelistedAddress',
        email: 'alex.partner+x@example.com',
        expected: denied('not-on-allow-list'),
      },
      {
        name: 'rejectsOtherAddressAtWhitelistedDomain',
        email: 'someone@example.com',
        expected: denied('not-on-allow-list'),
      },
      {
        name: 'rejectsWhitelistedLocalPartAtSubdomain',
        email: 'alex.partner@mail.example.com',
        expected: denied('not-on-allow-list'),
      },
      {
        name: 'rejectsWhitelistedAddressAsLocalPart',
        email: 'alex.partner@example.com@evil.com',
        expected: denied('malformed-email'),
      },
    ]);
  });

  describe('with allowSubdomains', () => {
    expectDecisions(withSubdomains, [
      { name: 'allowsSubdomain', email: 'x@sub.acme.dev', expected: byDomain },
      { name: 'allowsNestedSubdomain', email: 'x@a.b.acme.dev', expected: byDomain },
      { name: 'stillAllowsExactDomain', email: 'x@acme.dev', expected: byDomain },
      { name: 'rejectsSuffixWithoutLabelBoundary', email: 'x@subacme.dev', expected: denied('not-on-allow-list') },
      { name: 'rejectsHyphenatedLookAlike', email: 'x@sub-acme.dev', expected: denied('not-on-allow-list') },
      {
        name: 'rejectsAllowedDomainAsPrefixOfAttackerDomain',
        email: 'x@sub.acme.dev.evil.com',
        expected: denied('not-on-allow-list'),
      },
      { name: 'rejectsEmptyLabelBeforeAllowedDomain', email: 'x@.acme.dev', expected: denied('malformed-email') },
      {
        name: 'rejectsSubdomainOfWhitelistedAddressDomain',
        email: 'alex.partner@sub.example.com',
        expected: denied('not-on-allow-list'),
      },
    ]);
  });

  describe('with requireHostedDomain', () => {
    expectDecisions(withHostedDomain, [
      { name: 'allowsMatchingHostedDomain', email: 'x@acme.dev', hostedDomain: 'acme.dev', expected: byDomain },
      { name: 'allowsUpperCaseHostedDomain', email: 'x@acme.dev', hostedDomain: 'ACME.DEV', expected: byDomain },
      { name: 'allowsOtherAllowedHostedDomain', email: 'x@acme.dev', hostedDomain: 'acme.io', expected: byDomain },
      { name: 'rejectsDomainGrantWithoutHostedDomain', email: 'x@acme.dev', expected: denied('hosted-domain-missing') },
      {
        name: 'rejectsDomainGrantWithEmptyHostedDomain',
        email: 'x@acme.dev',
        hostedDomain: '',
        expected: denied('hosted-domain-missing'),
      },
      {
        name: 'rejectsHostedDomainOfAnotherWorkspace',
        email: 'x@acme.dev',
        hostedDomain: 'evil.com',
        expected: denied('hosted-domain-mismatch'),
      },
      {
        name: 'rejectsHostedDomainWithAllowedPrefix',
        email: 'x@acme.dev',
        hostedDomain: 'acme.dev.evil.com',
        expected: denied('hosted-domain-mismatch'),
      },
      {
        name: 'rejectsLookAlikeHostedDomain',
        email: 'x@acme.dev',
        hostedDomain: '\u0430cme.dev',
        expected: denied('hosted-domain-mismatch'),
      },
      {
        name: 'rejectsHostedDomainWithTrailingSpace',
        email: 'x@acme.dev',
        hostedDomain: 'acme.dev ',
        expected: denied('hosted-domain-mismatch'),
      },
      { name: 'allowsAddressGrantWithoutHostedDomain', email: 'alex.partner@example.com', expected: byAddress },
      {
        name: 'rejectsUnlistedAddressBeforeLookingAtHostedDomain',
        email: 'x@evil.com',
        hostedDomain: 'acme.dev',
        expected: denied('not-on-allow-list'),
      },
    ]);
  });

  describe('without requireHostedDomain', () => {
    expectDecisions(policy, [
      { name: 'ignoresForeignHostedDomain', email: 'x@acme.dev', hostedDomain: 'evil.com', expected: byDomain },
      { name: 'ignoresMissingHostedDomain', email: 'x@acme.dev', expected: byDomain },
    ]);
  });

  it.each([
    ['rejectsUnverifiedEmailAtAllowedDomain', 'x@acme.dev'],
    ['rejectsUnverifiedWhitelistedAddress', 'alex.partner@example.com'],
    ['rejectsUnverifiedMalformedEmailAsUnverified', 'a@b@acme.dev'],
  ])('%s', (_name, email) => {
    expect(decideAccess(withHostedDomain, { email, emailVerified: false, hostedDomain: 'acme.dev' })).toEqual(
      denied('email-not-verified'),
    );
  });
});

describe('isMaintainer (MAINTAINERS, matched exactly like the allowed addresses)', () => {
  it.each([
    ['docs.lead@acme.dev', true, true],
    ['Docs.Lead@ACME.dev', true, true],
    ['kate@example.org', true, true],
    ['reader@acme.dev', true, false],
    ['docs.lead@acme.dev.evil.example', true, false],
    ['docs.lead@eng.acme.dev', true, false],
    ['docs.lead@acme.dev', false, false],
    ['docs.le\u0430d@acme.dev', true, false],
  ])('%s (verified: %s) is a maintainer: %s', (email, emailVerified, expected) => {
    expect(isMaintainer(policy, { email, emailVerified })).toBe(expected);
  });

  it('refusesMaintainerNoLongerAllowedToRead: a listed address whose domain was removed is no maintainer', () => {
    expect(
      isMaintainer(
        { ...policy, domains: ['acme.io', 'acme.studio'] },
        { email: 'docs.lead@acme.dev', emailVerified: true },
      ),
    ).toBe(false);
  });
});
