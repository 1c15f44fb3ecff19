import { type ReactNode, useEffect, useState } from 'react';
import type { ServerThreadHistory } from './runtime/server-thread-history';
import { Icon } from './view/icons';
import shared from './view/shared.module.css';

/** Tells the reader when part of the conversation (a message, a rating) could not be saved, until dismissed. */
export function SaveProblem({ history }: { history: ServerThreadHistory }): ReactNode {
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => history.onSaveProblem(setProblem), [history]);
  if (!problem) return null;
  return (
    <p className={shared.problem} role="alert" data-testid="copilot-save-problem">
      This conversation could not be saved ({problem}). It stays on screen until you reload.
      <button type="button" className="clean-btn" onClick={() => setProblem(null)} aria-label="Dismiss">
        <Icon name="close" size={12} />
      </button>
    </p>
  );
}
