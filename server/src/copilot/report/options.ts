import { parseArgs } from 'node:util';
import { z } from 'zod';

export const reportUsage = `Usage: npm run -s copilot:report -- [--since 7d|24h|2w|2026-11-01] [--limit 200] [--json]

  --since   only items from this long ago (h, d or w) or from this ISO date or time (UTC) on; default: all
  --limit   at most this many items, the newest (1-10000); default 200
  --json    JSON for machines instead of Markdown`;

export type ReportOptions = { since: Date | undefined; limit: number; json: boolean; help: boolean };

/** A mistake on the command line; the CLI prints it with the usage and exits with code 2. */
export class ReportUsageError extends Error {
  override name = 'ReportUsageError';
}

const unitMilliseconds = { h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

const sinceSchema = z
  .string()
  .regex(/^(\d+[hdw]|\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)$/, {
    error: 'must be a duration like 7d, 24h or 2w, or an ISO date like 2026-11-01',
  });

const limitSchema = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(10_000, 'must be at most 10000');

function parseSince(text: string, now: Date): Date {
  const parsed = sinceSchema.safeParse(text);
  if (!parsed.success) throw new ReportUsageError(`--since ${text}: ${parsed.error.issues[0]?.message}`);
  const duration = /^(\d+)([hdw])$/.exec(text);
  const since = duration
    ? new Date(now.getTime() - Number(duration[1]) * unitMilliseconds[duration[2] as keyof typeof unitMilliseconds])
    : new Date(/T/.test(text) && !/(Z|[+-]\d{2}:\d{2})$/.test(text) ? `${text}Z` : text);
  if (Number.isNaN(since.getTime())) throw new ReportUsageError(`--since ${text}: is not a real date`);
  if (since > now) throw new ReportUsageError(`--since ${text}: is in the future`);
  return since;
}

/** Reads the report's command line; throws ReportUsageError on an unknown flag or a bad value. */
export function parseReportArguments(args: readonly string[], now: Date): ReportOptions {
  let values: { since?: string | undefined; limit?: string | undefined; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        since: { type: 'string' },
        limit: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new ReportUsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  let limit = 200;
  if (values.limit !== undefined) {
    const parsed = limitSchema.safeParse(values.limit.trim() === '' ? Number.NaN : values.limit);
    if (!parsed.success) throw new ReportUsageError(`--limit ${values.limit}: ${parsed.error.issues[0]?.message}`);
    limit = parsed.data;
  }
  return {
    since: values.since === undefined ? undefined : parseSince(values.since, now),
    limit,
    json: values.json ?? false,
    help: values.help ?? false,
  };
}
