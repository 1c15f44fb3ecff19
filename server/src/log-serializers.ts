import pino from 'pino';

/** A failed query's SQL is logged up to this length; its parameters never are. */
const maxQueryLength = 500;
/** Causes followed when cleaning an error. */
const maxCauseDepth = 5;

/** A failed query as the log shows it: its SQL (cut), how many parameters it had, and not their values. */
class FailedQuery extends Error {
  override name = 'FailedQuery';
}

/**
 * pino's error serializer, except that a failed query (Drizzle's error carries `query` and `params`, and repeats both
 * in its message and stack) loses its parameters, in itself and in the errors it caused: they hold what readers
 * wrote (questions, conversation titles, feedback), which must not reach the log, least of all at error level. One
 * failing write per request during a disk-full episode logged megabytes of them.
 */
export function serializeError(error: unknown) {
  return pino.stdSerializers.err(withoutQueryParameters(error, 0) as Error);
}

function withoutQueryParameters(error: unknown, depth: number): unknown {
  if (!(error instanceof Error) || depth > maxCauseDepth) return error;
  const cause = withoutQueryParameters(error.cause, depth + 1);
  const { query, params } = error as { query?: unknown; params?: unknown };
  const failedQuery = typeof query === 'string' && Array.isArray(params);
  if (!failedQuery && cause === error.cause) return error;
  // Drizzle's message repeats the query and its parameters; a driver's (PGlite's, with the same two fields) says why.
  const repeatsThem = failedQuery && error.message.startsWith('Failed query:');
  const message = repeatsThem ? `Failed query: ${cut(query)}\nparams: ${params.length} not logged` : error.message;
  const cleaned = repeatsThem ? new FailedQuery(message, { cause }) : new Error(message, { cause });
  if (!repeatsThem) cleaned.name = error.name;
  const frames = (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  cleaned.stack = [`${cleaned.name}: ${message}`, ...frames].join('\n');
  for (const key of ['code', 'statusCode'] as const) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (value !== undefined) Object.assign(cleaned, { [key]: value });
  }
  return cleaned;
}

const cut = (text: string) => (text.length <= maxQueryLength ? text : `${text.slice(0, maxQueryLength)}…`);
