import type { ReactNode } from 'react';
import { siteFacts } from '../../../site.config';
import { askCopilot } from '../Copilot/ask-copilot';

/** "Ask Dev Copilot" for a query the search found nothing for. */
export function AskCopilotButton({ query, onAsked }: { query: string; onAsked?: () => void }): ReactNode {
  return (
    <button
      type="button"
      className="button button--sm button--primary margin-top--sm"
      title={`Ask ${siteFacts.assistantName} this question`}
      data-testid="ask-copilot-from-search"
      // Keep the focus in the search box until the click lands, or the dropdown closes under the pointer.
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => {
        askCopilot(query.trim());
        onAsked?.();
      }}
    >
      Ask {siteFacts.assistantName}
    </button>
  );
}
