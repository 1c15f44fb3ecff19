import type { ReactNode } from 'react';
import hidden from '../../../css/visually-hidden.module.css';
import shared from '../view/shared.module.css';
import userMessage from '../view/UserMessage.module.css';
import styles from './ChatShell.module.css';
import { useDraft } from './useDraft';

/** A question sent before the chat could take it, shown as the reader's message until the real chat asks it. */
function QueuedQuestion(): ReactNode {
  const { queued } = useDraft();
  if (!queued) return null;
  return (
    <div className={userMessage.userMessage} data-testid="copilot-queued-question">
      {queued.files.length > 0 && (
        <p className={styles.queuedFiles}>
          {queued.files.length === 1 ? '1 image' : `${queued.files.length} images`} attached
        </p>
      )}
      <div className={userMessage.userRow}>
        <div className={userMessage.userBubble}>
          <p className={userMessage.userText}>{queued.text}</p>
        </div>
      </div>
    </div>
  );
}

/**
 * Where the conversation will be while it loads (the chat's code, then the reader's latest conversation): a
 * placeholder, never a half-drawn answer, and the question the reader already sent.
 */
export function ShellConversation({ failed, onRetry }: { failed?: boolean; onRetry?: () => void }): ReactNode {
  return (
    <>
      <QueuedQuestion />
      {failed ? (
        <p className={shared.problem} role="alert">
          Dev Copilot could not load. Check the connection and try again.
          <button type="button" className="button button--sm button--secondary" onClick={onRetry}>
            Try again
          </button>
        </p>
      ) : (
        <div className={styles.placeholder} data-testid="copilot-loading">
          <span className={hidden.visuallyHidden} role="status">
            Loading the conversation
          </span>
          <span className={styles.bar} />
          <span className={styles.bar} />
          <span className={styles.bar} />
        </div>
      )}
    </>
  );
}
