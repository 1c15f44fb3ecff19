import { describe, expect, it } from 'vitest';
import { createBearerFailureGuard } from './bearer-failures.js';

describe('the bearer failure guard', () => {
  it('refuses an address for the rest of its minute once it has failed its allowance, then lets it try again', () => {
    let clock = 1_000_000;
    const guard = createBearerFailureGuard({ perMinute: 3, now: () => clock });
    for (let n = 0; n < 3; n += 1) {
      expect(guard.refusedFor('203.0.113.7')).toBeUndefined();
      guard.failed('203.0.113.7');
      clock += 10_000;
    }
    expect(guard.refusedFor('203.0.113.7')).toBe(30);
    expect(guard.refusedFor('203.0.113.8')).toBeUndefined();
    clock += 29_000;
    expect(guard.refusedFor('203.0.113.7')).toBe(1);
    clock += 1_000;
    expect(guard.refusedFor('203.0.113.7')).toBeUndefined();
    guard.failed('203.0.113.7');
    expect(guard.refusedFor('203.0.113.7')).toBeUndefined();
  });

  it('counts an IPv6 /64 as one address, and an IPv4-mapped address as its IPv4', () => {
    const guard = createBearerFailureGuard({ perMinute: 2, now: () => 0 });
    guard.failed('2001:db8:1:2::1');
    guard.failed('2001:db8:1:2::ffff');
    expect(guard.refusedFor('2001:db8:1:2:abcd::9')).toBe(60);
    expect(guard.refusedFor('2001:db8:1:3::1')).toBeUndefined();
    guard.failed('::ffff:198.51.100.1');
    guard.failed('198.51.100.1');
    expect(guard.refusedFor('198.51.100.1')).toBe(60);
  });

  it('keeps at most the addresses it is given, forgetting the least recent', () => {
    const guard = createBearerFailureGuard({ perMinute: 1, addresses: 2, now: () => 0 });
    guard.failed('192.0.2.1');
    guard.failed('192.0.2.2');
    guard.failed('192.0.2.3');
    expect(guard.refusedFor('192.0.2.1')).toBeUndefined();
    expect(guard.refusedFor('192.0.2.3')).toBe(60);
  });

  it('lets a credential verified here lately through while its address is refused (readers behind one NAT)', () => {
    const guard = createBearerFailureGuard({ perMinute: 1, now: () => 0 });
    const ada = 'acme_pat_0123456789abcdef_the-whole-secret';
    guard.verified(ada);
    guard.failed('198.51.100.7');
    expect(guard.refusedFor('198.51.100.7')).toBe(60);
    expect(guard.refusedFor('198.51.100.7', ada)).toBeUndefined();
    expect(guard.refusedFor('198.51.100.7', 'acme_pat_made-up')).toBe(60);
    // The same token id with another secret is a made-up credential like any other.
    expect(guard.refusedFor('198.51.100.7', 'acme_pat_0123456789abcdef_another-secret')).toBe(60);
  });

  it('forgets a verified credential once it fails (revoked or expired since)', () => {
    const guard = createBearerFailureGuard({ perMinute: 1, now: () => 0 });
    const revoked = 'acme_pat_0123456789abcdef_revoked-since';
    guard.verified(revoked);
    guard.failed('198.51.100.7', revoked);
    expect(guard.refusedFor('198.51.100.7', revoked)).toBe(60);
  });
});
