import { describe, expect, it } from 'vitest';
import { ceilingRefusal, maxUnauthorizedClients } from './client-registration.js';

const now = new Date('2030-01-10T12:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);

describe('ceilingRefusal', () => {
  it('lets a registration through below the ceiling', () => {
    expect(ceilingRefusal({ count: maxUnauthorizedClients - 1, oldest: hoursAgo(1) }, now)).toBeUndefined();
  });

  it.for([
    [23, 3600, 'an hour'],
    [1, 23 * 3600, '23 hours'],
    [24.5, 1, 'an hour'],
  ] as const)('at the ceiling, the oldest %s h old: 503, Retry-After %s s, "%s"', ([age, seconds, words]) => {
    const refusal = ceilingRefusal({ count: maxUnauthorizedClients, oldest: hoursAgo(age) }, now);
    expect(refusal?.retryAfterSeconds).toBe(seconds);
    expect(refusal?.error).toMatchObject({ code: 'temporarily_unavailable', status: 503 });
    expect(refusal?.error.description).toContain(`try again in ${words} at most`);
  });
});
