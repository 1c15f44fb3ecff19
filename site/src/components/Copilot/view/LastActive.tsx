import type { ReactNode } from 'react';
import { lastActiveLabel } from './last-active';

/** A conversation's last activity, for the list; nothing for one not saved yet. */
export function LastActive({ at, className }: { at: Date | undefined; className?: string }): ReactNode {
  if (!at || Number.isNaN(at.getTime())) return null;
  return (
    <time
      className={className}
      dateTime={at.toISOString()}
      title={at.toLocaleString()}
      data-testid="thread-last-active"
    >
      {lastActiveLabel(at)}
    </time>
  );
}
