import { describe, expect, it } from 'vitest';
import { lastActiveLabel } from '../src/components/Copilot/view/last-active';

describe('lastActiveLabel', () => {
  // A Wednesday afternoon in the machine's own time zone, as the reader's browser would see it.
  const now = new Date(2026, 10, 25, 15, 30);
  const at = (daysAgo: number, hour = 9) => new Date(2026, 10, 25 - daysAgo, hour, 5);

  it('says the time today, Yesterday, the weekday within the week, and the date before that', () => {
    expect(lastActiveLabel(at(0), now)).toBe(new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(at(0)));
    expect(lastActiveLabel(at(1, 23), now)).toBe('Yesterday');
    expect(lastActiveLabel(at(2), now)).toBe(new Intl.DateTimeFormat(undefined, { weekday: 'long' }).format(at(2)));
    expect(lastActiveLabel(at(6), now)).not.toMatch(/\d/);
    expect(lastActiveLabel(at(7), now)).toBe(
      new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' }).format(at(7)),
    );
    expect(lastActiveLabel(new Date(2025, 0, 3), now)).toMatch(/2025/);
  });

  it('says the time for a moment a little ahead of the clock (another device), never a weekday', () => {
    expect(lastActiveLabel(new Date(2026, 10, 25, 15, 31), now)).toMatch(/\d/);
  });
});
