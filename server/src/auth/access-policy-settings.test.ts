import { describe, expect, it } from 'vitest';
import { parseAccessPolicy, primaryDomains } from './access-policy.js';

describe('parseAccessPolicy', () => {
  it('reads comma- and whitespace-separated lists, lower-cased and in order', () => {
    expect(
      parseAccessPolicy({
        domains: ' Acme.DEV, acme.io\n acme-labs.dev ,,acme.studio ',
        addresses: 'Alex.Partner@Example.com sam.contractor@example.org,\tqa.vendor@example.net',
      }),
    ).toEqual({
      domains: ['acme.dev', 'acme.io', 'acme-labs.dev', 'acme.studio'],
      addresses: ['alex.partner@example.com', 'sam.contractor@example.org', 'qa.vendor@example.net'],
      allowSubdomains: false,
      requireHostedDomain: false,
      maintainers: [],
      blocked: [],
    });
  });

  it('passes the flags through', () => {
    const parsed = parseAccessPolicy({
      domains: 'acme.dev,acme.io',
      addresses: '',
      allowSubdomains: true,
      requireHostedDomain: true,
    });
    expect(parsed).toMatchObject({ addresses: [], allowSubdomains: true, requireHostedDomain: true });
  });

  it('keeps the first of repeated entries', () => {
    const parsed = parseAccessPolicy({
      domains: 'acme.dev, acme.io, ACME.dev',
      addresses: 'kate@example.org, Kate@Example.org',
    });
    expect(parsed).toMatchObject({ domains: ['acme.dev', 'acme.io'], addresses: ['kate@example.org'] });
  });

  it.each([
    ['acme'],
    ['.acme.dev'],
    ['acme.dev.'],
    ['acme..dev'],
    ['-acme.dev'],
    ['acme-.dev'],
    ['acme_dev.com'],
    ['*.acme.dev'],
    ['x@acme.dev'],
    ['https://acme.dev'],
    ['\u0430cme.dev'],
    ['acme\uff0edev'],
    ['acme.dev\0'],
  ])('rejects the domain %j, naming it', (entry) => {
    expect(() => parseAccessPolicy({ domains: `acme.io, ${entry}, acme.studio`, addresses: '' })).toThrow(
      `${JSON.stringify(entry)} is not a domain`,
    );
  });

  it.each([
    ['acme.dev'],
    ['@acme.dev'],
    ['x@'],
    ['a@b@acme.dev'],
    ['x@acme'],
    ['x@acme.dev.'],
    ['x@\u0430cme.dev'],
    ['x\0@acme.dev'],
  ])('rejects the address %j, naming it', (entry) => {
    expect(() => parseAccessPolicy({ domains: 'acme.dev,acme.io', addresses: `kate@example.org,${entry}` })).toThrow(
      `${JSON.stringify(entry)} is not an e-mail address`,
    );
  });

  it.each([[''], [' , '], ['acme.dev'], ['acme.dev, ACME.DEV']])(
    'rejects %j: two primary domains are needed',
    (domains) => {
      expect(() => parseAccessPolicy({ domains, addresses: 'kate@example.org' })).toThrow('at least two domains');
    },
  );
});

describe('primaryDomains', () => {
  it('names the first two domains, in order', () => {
    const parsed = parseAccessPolicy({ domains: 'acme.dev,acme.io,acme-labs.dev,acme.studio', addresses: '' });
    expect(primaryDomains(parsed)).toEqual(['acme.dev', 'acme.io']);
  });

  it('names both when there are exactly two', () => {
    expect(primaryDomains(parseAccessPolicy({ domains: 'acme.dev acme.io', addresses: '' }))).toEqual([
      'acme.dev',
      'acme.io',
    ]);
  });
});
