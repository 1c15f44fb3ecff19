/** One line saying what went wrong, also for errors whose message is empty (a refused connection to every address). */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeError(error.errors[0]);
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message !== '' ? error.message : String(code ?? error.name);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}
