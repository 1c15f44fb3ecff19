import type { AnswerConfidence } from '@acme/contract';
import { useAuiState } from '@assistant-ui/react';
import type { ReactNode } from 'react';
import styles from './ConfidenceNote.module.css';

const notes: Record<Exclude<AnswerConfidence, 'answered'>, string> = {
  closest: 'Closest match: the handbook may not answer this exactly',
  none: 'Not covered by the handbook',
};

/**
 * Says above an answer when the handbook only comes close to the question, or does not cover it, so neither reads as
 * a confident answer. A confident answer needs no note.
 */
export function ConfidenceNote(): ReactNode {
  const confidence = useAuiState((s) => s.message.metadata.custom.confidence) as AnswerConfidence | undefined;
  if (confidence !== 'closest' && confidence !== 'none') return null;
  return (
    <p className={styles.note} data-testid="copilot-confidence" data-confidence={confidence}>
      {notes[confidence]}
    </p>
  );
}
