import { useAui, useAuiState } from '@assistant-ui/react';
import { type ReactNode, useSyncExternalStore } from 'react';
import { threadCreation } from '../runtime/thread-creation';
import { Icon } from './icons';
import { ReloadPageButton } from './ReloadPageButton';
import shared from './shared.module.css';

/**
 * Why a new chat's first question was not sent (the server could not create the conversation): the question is back
 * in the composer, and Retry sends it again; after a session ended, a reload leads to signing in again instead. Shown
 * only in the conversation it was for, until it is sent or dismissed.
 */
export function StartProblem(): ReactNode {
  const aui = useAui();
  const problem = useSyncExternalStore(threadCreation.subscribe, threadCreation.problem, () => null);
  const here = useAuiState((s) => s.threadListItem.status === 'new' && s.threadListItem.id === problem?.threadId);
  const canSend = useAuiState((s) => !s.composer.isEmpty);
  if (!problem || !here) return null;
  return (
    <p className={shared.problem} role="alert" data-testid="copilot-start-problem">
      {problem.message}
      <span className={shared.problemActions}>
        {problem.sessionEnded ? (
          <ReloadPageButton />
        ) : (
          <button
            type="button"
            className="button button--sm button--outline button--danger"
            disabled={!canSend}
            onClick={() => aui.composer.send()}
          >
            Retry
          </button>
        )}
        <button type="button" className="clean-btn" onClick={threadCreation.dismissProblem} aria-label="Dismiss">
          <Icon name="close" size={12} />
        </button>
      </span>
    </p>
  );
}
