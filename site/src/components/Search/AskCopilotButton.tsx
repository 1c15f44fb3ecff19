import clsx from 'clsx';
import type { ReactNode } from 'react';
import { siteFacts } from '../../../site.config';
import { askCopilot } from '../Copilot/ask-copilot';
import styles from './styles.module.css';

/** "Ask Dev Copilot" with the query, under "No results" on the /search page. */
export function AskCopilotButton({ query }: { query: string }): ReactNode {
  return (
    <button
      type="button"
      className="button button--sm button--primary margin-top--sm"
      title={`Ask ${siteFacts.assistantName} this question`}
      data-testid="ask-copilot-from-search"
      onClick={() => askCopilot(query.trim())}
    >
      Ask {siteFacts.assistantName}
    </button>
  );
}

/**
 * "Ask Dev Copilot" with the query as the last option of the search box's suggestions, after the hits or alone when
 * there are none (a question rarely finds its answer in titles alone, and the hits may share a word only). As an
 * option the arrows reach it as they reach the hits, and a screen reader hears it as one of them; the search input
 * keeps the focus and asks on Enter when it points here (the ARIA combobox pattern).
 */
export function AskCopilotOption({
  id,
  active,
  afterHits,
  onPointed,
  onAsk,
}: {
  id: string;
  active: boolean;
  afterHits: boolean;
  onPointed: () => void;
  onAsk: () => void;
}): ReactNode {
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the search input's, which points at this option
    <div
      id={id}
      role="option"
      aria-selected={active}
      tabIndex={-1}
      title={`Ask ${siteFacts.assistantName} this question`}
      data-ask-copilot=""
      data-testid={afterHits ? 'ask-copilot-beside-results' : 'ask-copilot-from-search'}
      className={clsx(styles.askOption, active && styles.activeOption)}
      onMouseEnter={onPointed}
      onClick={onAsk}
    >
      Ask {siteFacts.assistantName}
    </div>
  );
}
