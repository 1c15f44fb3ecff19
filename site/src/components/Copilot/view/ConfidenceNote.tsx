import type { AnswerConfidence } from '@acme/contract';
import { useAuiState } from '@assistant-ui/react';
import type { ReactNode } from 'react';
import styles from './ConfidenceNote.module.css';

const notes: Record<Exclude<AnswerConfidence, 'answered'>, string> = {
  closest: 'Closest match: the handbook may not answer this exactly',
  none: 'Not covered by the handbook',
};

/**
 * The answer that only comes close says so in its own first words (the server's wording, "The handbook may not answer
 * this exactly; the closest it comes is…"): the note then keeps to its name, so nothing is said twice. An answer
 * written in other words (a language model's) still gets the whole note.
 */
const saysItIsOnlyClose = /may not answer this exactly/i;

/**
 * Says above an answer when the handbook only comes close to the question, or does not cover it, so neither reads as
 * a confident answer. A confident answer needs no note.
 */
export function ConfidenceNote(): ReactNode {
  const confidence = useAuiState((s) => s.message.metadata.custom.confidence) as AnswerConfidence | undefined;
  const saysItself = useAuiState((s) =>
    s.message.content.some((part) => part.type === 'text' && saysItIsOnlyClose.test(part.text)),
  );
  if (confidence !== 'closest' && confidence !== 'none') return null;
  return (
    <p className={styles.note} data-testid="copilot-confidence" data-confidence={confidence}>
      {confidence === 'closest' && saysItself ? 'Closest match' : notes[confidence]}
    </p>
  );
}
