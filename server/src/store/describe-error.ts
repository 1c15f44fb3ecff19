/** One line saying what went wrong, also for errors whose message is empty (a refused connection to every address). */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeError(error.errors[0]);
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message !== '' ? error.message : String(code ?? error.name);
  const described = typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
  // Drizzle wraps driver errors as "Failed query: ..."; the reason a person can act on is in the cause.
  return error.cause === undefined ? described : `${described}: ${describeError(error.cause)}`;
}
