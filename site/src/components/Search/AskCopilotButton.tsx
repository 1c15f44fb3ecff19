import type { ReactNode } from 'react';
import { siteFacts } from '../../../site.config';
import { askCopilot } from '../Copilot/ask-copilot';
import styles from './styles.module.css';

/**
 * "Ask Dev Copilot" with the query: a button under "No results", and a quieter one beside "See all results" when the
 * search found something (a question rarely finds its answer in titles alone, and the hits may share a word only).
 */
export function AskCopilotButton({
  query,
  onAsked,
  quiet = false,
}: {
  query: string;
  onAsked?: () => void;
  quiet?: boolean;
}): ReactNode {
  return (
    <button
      type="button"
      className={quiet ? `clean-btn ${styles.quietAsk}` : 'button button--sm button--primary margin-top--sm'}
      title={`Ask ${siteFacts.assistantName} this question`}
      data-testid={quiet ? 'ask-copilot-beside-results' : 'ask-copilot-from-search'}
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
