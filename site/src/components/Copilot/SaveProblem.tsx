import { type ReactNode, useEffect, useState } from 'react';
import { onProblem } from './runtime/problems';
import { Icon } from './view/icons';
import shared from './view/shared.module.css';

/** Tells the reader when a change (a rating, a rename) could not be saved, until dismissed. */
export function SaveProblem(): ReactNode {
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => onProblem(setProblem), []);
  if (!problem) return null;
  return (
    <p className={shared.problem} role="alert" data-testid="copilot-save-problem">
      This change could not be saved ({problem}).
      <button type="button" className="clean-btn" onClick={() => setProblem(null)} aria-label="Dismiss">
        <Icon name="close" size={12} />
      </button>
    </p>
  );
}
