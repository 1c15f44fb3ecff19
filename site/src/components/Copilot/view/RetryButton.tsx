import { ActionBarPrimitive } from '@assistant-ui/react';
import { type ReactNode, useEffect, useState } from 'react';

/** Seconds left until `retryAt`, counting down once a second; 0 once it has passed (or when there is none). */
function useSecondsUntil(retryAt: number | undefined): number {
  const left = () => (retryAt === undefined ? 0 : Math.max(0, Math.ceil((retryAt - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    if (retryAt === undefined) return;
    const tick = () => setSeconds(Math.max(0, Math.ceil((retryAt - Date.now()) / 1000)));
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [retryAt]);
  return seconds;
}

/**
 * Asks again after a failed answer (a reload of the message, so the failure stays as its own branch). After a limit's
 * refusal it waits out the Retry-After the server sent, saying how long: pressed at once, it was only refused again.
 */
export function RetryButton({ retryAt }: { retryAt?: number | undefined }): ReactNode {
  const seconds = useSecondsUntil(retryAt);
  return (
    <ActionBarPrimitive.Reload className="button button--sm button--outline button--danger" disabled={seconds > 0}>
      {seconds > 0 ? `Retry in ${seconds} s` : 'Retry'}
    </ActionBarPrimitive.Reload>
  );
}
