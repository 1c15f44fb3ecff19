import { maxFeedbackCommentCharacters } from '@acme/contract';
import { useAui, useAuiState } from '@assistant-ui/react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useFocusReturn } from '../../ConfirmChoice/useFocusReturn';
import styles from './FeedbackReason.module.css';

/**
 * After "Bad response": an optional reason, saved with the rating so the docs team knows what to fix. Each new
 * `focusRequests` (a press of Bad response) puts the cursor in the field; a rating shown as the conversation loads
 * (none) leaves the focus where it is.
 */
export function FeedbackReason({ focusRequests }: { focusRequests: number }): ReactNode {
  const aui = useAui();
  const [reason, setReason] = useState('');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusRequests > 0) field.current?.focus();
  }, [focusRequests]);
  const [sent, setSent] = useState(false);
  const savedReason = useAuiState((s) => s.message.metadata.custom.feedbackComment);
  // The form, and the button just pressed with it, give way to the thanks: the thanks takes the focus, not the body
  // (a reason saved before, shown as the conversation loads, does not).
  const thanks = useFocusReturn();
  if (sent || typeof savedReason === 'string')
    return (
      <p className={styles.feedbackThanks} ref={thanks.ref} tabIndex={-1}>
        Thanks, the docs team will see your reason.
      </p>
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return;
    aui.message().submitFeedback({ type: 'negative', comment: reason.trim().slice(0, maxFeedbackCommentCharacters) });
    thanks.returnFocus();
    setSent(true);
  };
  return (
    <form className={styles.feedbackReason} onSubmit={submit} data-testid="feedback-reason">
      <label>
        What was wrong? (optional)
        <input
          ref={field}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={maxFeedbackCommentCharacters}
        />
      </label>
      <button type="submit" className="button button--sm button--secondary" disabled={!reason.trim()}>
        Send reason
      </button>
    </form>
  );
}
