const dayMs = 86_400_000;
const startOfDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

/**
 * When a conversation was last active, as a chat list says it: the time today, "Yesterday", the weekday within the
 * week, else the date (with the year when it is not this one). Read in the reader's own locale and time zone.
 */
export function lastActiveLabel(at: Date, now = new Date()): string {
  const daysAgo = Math.round((startOfDay(now) - startOfDay(at)) / dayMs);
  if (daysAgo <= 0) return new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(at);
  if (daysAgo === 1) return 'Yesterday';
  if (daysAgo < 7) return new Intl.DateTimeFormat(undefined, { weekday: 'long' }).format(at);
  const sameYear = at.getFullYear() === now.getFullYear();
  return new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  }).format(at);
}
