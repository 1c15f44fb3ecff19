import { describe, expect, it } from 'vitest';
import { trustedProxyTest } from './connection-caps.js';

describe('which connections come from a trusted proxy (TRUST_PROXY), whose are not counted per address', () => {
  const trusted = trustedProxyTest(['172.28.0.10', '10.1.0.0/16', 'fd00::/64']);

  it.for([
    ['172.28.0.10', true],
    ['::ffff:172.28.0.10', true],
    ['10.1.200.3', true],
    ['fd00::1234', true],
    ['172.28.0.11', false],
    ['10.2.0.1', false],
    ['fd00:0:0:1::1', false],
    ['::ffff:10.2.0.1', false],
  ] as const)('%s: %s', ([address, isTrusted]) => {
    expect(trusted(address)).toBe(isTrusted);
  });

  it('trustsNoAddressWithoutAProxy', () => {
    expect(trustedProxyTest([])('127.0.0.1')).toBe(false);
  });
});
