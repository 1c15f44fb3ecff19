import type { ReactNode } from 'react';

/**
 * Offered instead of Retry when the session has ended: asking again would only be refused again, and the reload
 * brings the sign-in page, which returns the reader here.
 */
export function ReloadPageButton(): ReactNode {
  return (
    <button
      type="button"
      className="button button--sm button--outline button--danger"
      onClick={() => window.location.reload()}
    >
      Reload the page
    </button>
  );
}
