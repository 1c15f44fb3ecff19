import { describe, expect, it } from 'vitest';
import { addressKeyOf } from './address-key.js';

describe('addressKeyOf', () => {
  it('counts IPv4 as is, an IPv4-mapped address as its IPv4, and IPv6 by its /64', () => {
    expect(addressKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    const one = addressKeyOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(addressKeyOf('2001:db8:1:2::1')).toBe(one);
    expect(addressKeyOf('2001:DB8:1:2:ffff::')).toBe(one);
    expect(addressKeyOf('2001:db8:1:3::1')).not.toBe(one);
  });
});
