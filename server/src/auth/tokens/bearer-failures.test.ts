import { describe, expect, it } from 'vitest';
import { createBearerFailureGuard } from './bearer-failures.js';

describe('the bearer failure guard', () => {
  it('refuses an address for the rest of its minute once it has failed its allowance, then lets it try again', async () => {
    let clock = 1_000_000;
    const guard = createBearerFailureGuard({ perMinute: 3, now: () => clock });
    for (let n = 0; n < 3; n += 1) {
      expect(await guard.refusedFor('203.0.113.7')).toBeUndefined();
      guard.failed('203.0.113.7');
      clock += 10_000;
    }
    expect(await guard.refusedFor('203.0.113.7')).toBe(30);
    expect(await guard.refusedFor('203.0.113.8')).toBeUndefined();
    clock += 29_000;
    expect(await guard.refusedFor('203.0.113.7')).toBe(1);
    clock += 1_000;
    expect(await guard.refusedFor('203.0.113.7')).toBeUndefined();
    guard.failed('203.0.113.7');
    expect(await guard.refusedFor('203.0.113.7')).toBeUndefined();
  });

  it('counts an IPv6 /64 as one address, and an IPv4-mapped address as its IPv4', async () => {
    const guard = createBearerFailureGuard({ perMinute: 2, now: () => 0 });
    guard.failed('2001:db8:1:2::1');
    guard.failed('2001:db8:1:2::ffff');
    expect(await guard.refusedFor('2001:db8:1:2:abcd::9')).toBe(60);
    expect(await guard.refusedFor('2001:db8:1:3::1')).toBeUndefined();
    guard.failed('::ffff:198.51.100.1');
    guard.failed('198.51.100.1');
    expect(await guard.refusedFor('198.51.100.1')).toBe(60);
  });

  it('keeps at most the addresses it is given, forgetting the least recent', async () => {
    const guard = createBearerFailureGuard({ perMinute: 1, addresses: 2, now: () => 0 });
    guard.failed('192.0.2.1');
    guard.failed('192.0.2.2');
    guard.failed('192.0.2.3');
    expect(await guard.refusedFor('192.0.2.1')).toBeUndefined();
    expect(await guard.refusedFor('192.0.2.3')).toBe(60);
  });

  it('lets a credential verified here lately through while its address is refused (readers behind one NAT)', async () => {
    const guard = createBearerFailureGuard({ perMinute: 1, now: () => 0 });
    const ada = 'acme_pat_0123456789abcdef_the-whole-secret';
    guard.verified(ada);
    guard.failed('198.51.100.7');
    expect(await guard.refusedFor('198.51.100.7')).toBe(60);
    expect(await guard.refusedFor('198.51.100.7', ada)).toBeUndefined();
    expect(await guard.refusedFor('198.51.100.7', 'acme_pat_made-up')).toBe(60);
    // The same token id with another secret is a made-up credential like any other.
    expect(await guard.refusedFor('198.51.100.7', 'acme_pat_0123456789abcdef_another-secret')).toBe(60);
  });

  it('forgets a verified credential once it fails (revoked or expired since)', async () => {
    const guard = createBearerFailureGuard({ perMinute: 1, now: () => 0 });
    const revoked = 'acme_pat_0123456789abcdef_revoked-since';
    guard.verified(revoked);
    guard.failed('198.51.100.7', revoked);
    expect(await guard.refusedFor('198.51.100.7', revoked)).toBe(60);
  });

  it('checks a token that exists while its address is refused, reading the ids at most every ten seconds', async () => {
    let clock = 0;
    let reads = 0;
    let live = ['ada-token-id'];
    const guard = createBearerFailureGuard({
      perMinute: 2,
      now: () => clock,
      liveTokenIds: async () => {
        reads += 1;
        return live;
      },
    });
    guard.failed('198.51.100.7');
    guard.failed('198.51.100.7');
    expect(await guard.refusedFor('198.51.100.7', 'acme_pat_made-up', 'made-up-id')).toBe(60);
    expect(await guard.refusedFor('198.51.100.7', 'acme_pat_ada', 'ada-token-id')).toBeUndefined();
    expect(await guard.refusedFor('198.51.100.7', 'acme_pat_other', 'other-made-up-id')).toBe(60);
    expect(reads).toBe(1);
    // A token made since (on another instance) is seen once the ids are read again.
    live = ['ada-token-id', 'bob-token-id'];
    expect(await guard.refusedFor('198.51.100.7', 'acme_pat_bob', 'bob-token-id')).toBe(60);
    clock += 10_000;
    expect(await guard.refusedFor('198.51.100.7', 'acme_pat_bob', 'bob-token-id')).toBeUndefined();
    expect(reads).toBe(2);
    // A real id under made-up secrets is limited on its own, from that address only.
    guard.failed('198.51.100.7', 'acme_pat_ada-wrong-1', 'ada-token-id');
    guard.failed('198.51.100.7', 'acme_pat_ada-wrong-2', 'ada-token-id');
    expect(await guard.refusedFor('198.51.100.7', 'acme_pat_ada-wrong-3', 'ada-token-id')).toBe(50);
    expect(await guard.refusedFor('198.51.100.7', 'acme_pat_bob', 'bob-token-id')).toBeUndefined();
  });

  it('refuses unread when the ids cannot be read (the store is down)', async () => {
    const guard = createBearerFailureGuard({
      perMinute: 1,
      now: () => 0,
      liveTokenIds: () => Promise.reject(new Error('connection refused')),
    });
    guard.failed('198.51.100.7');
    expect(await guard.refusedFor('198.51.100.7', 'acme_pat_ada', 'ada-token-id')).toBe(60);
  });
});
