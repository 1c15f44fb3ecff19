import { describe, expect, it } from 'vitest';
import { parseReportArguments, ReportUsageError } from './options.js';

const now = new Date('2026-11-22T12:00:00.000Z');

describe('parseReportArguments', () => {
  it('defaults to everything, the newest 200, as text', () => {
    expect(parseReportArguments([], now)).toEqual({ since: undefined, limit: 200, json: false, help: false });
  });

  it.each([
    ['7d', '2026-11-15T12:00:00.000Z'],
    ['24h', '2026-11-21T12:00:00.000Z'],
    ['2w', '2026-11-08T12:00:00.000Z'],
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['2026-11-20T08:30', '2026-11-20T08:30:00.000Z'],
    ['2026-11-20T08:30:00+02:00', '2026-11-20T06:30:00.000Z'],
  ])('reads --since %s', (since, expected) => {
    expect(parseReportArguments(['--since', since], now).since?.toISOString()).toBe(expected);
  });

  it('reads --limit and --json', () => {
    expect(parseReportArguments(['--limit', '5', '--json'], now)).toMatchObject({ limit: 5, json: true });
  });

  it.each([
    [['--sinse', '7d'], "Unknown option '--sinse'"],
    [['--since'], "Option '--since <value>' argument missing"],
    [['--since', '7 days'], '--since 7 days: must be a duration like 7d'],
    [['--since', 'yesterday'], '--since yesterday: must be a duration'],
    [['--since', '2026-13-45'], '--since 2026-13-45: is not a real date'],
    [['--since', '2027-01-01'], '--since 2027-01-01: is in the future'],
    [['--limit', '0'], '--limit 0: must be at least 1'],
    [['--limit', '2.5'], '--limit 2.5: must be a whole number'],
    [['--limit', 'ten'], '--limit ten: must be a whole number'],
    [['--limit', ''], '--limit : must be a whole number'],
    [['--json=yes'], "Option '--json' does not take an argument"],
    [['report.md'], "Unexpected argument 'report.md'"],
  ])('refuses %j with a message naming the problem', (args, message) => {
    expect(() => parseReportArguments(args, now)).toThrow(ReportUsageError);
    expect(() => parseReportArguments(args, now)).toThrow(message);
  });
});
