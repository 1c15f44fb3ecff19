import { ActionBarPrimitive } from '@assistant-ui/react';
import type { ReactNode } from 'react';

/** Asks again after a failed answer (a reload of the message, so the failure stays as its own branch). */
export function RetryButton(): ReactNode {
  return (
    <ActionBarPrimitive.Reload className="button button--sm button--outline button--danger">
      Retry
    </ActionBarPrimitive.Reload>
  );
}
